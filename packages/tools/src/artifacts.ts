import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** `7` → `0007`, as in `diffs/step_0007.patch`. */
export function stepLabel(step: number): string {
  return String(step).padStart(4, '0');
}

// Folders already made in this process: one mkdir per folder, not one per artifact.
const madeFolders = new Set<string>();

async function ensureFolder(folder: string): Promise<void> {
  if (madeFolders.has(folder)) return;
  await mkdir(folder, { recursive: true });
  madeFolders.add(folder);
}

/**
 * Creates `relativePath` under `artifactsDir` without ever replacing a file (artifacts are
 * append-only): when the name is taken, `-2`, `-3`… is added before the extension.
 * Returns the open file and the relative path it got.
 */
export async function createArtifactFile(artifactsDir: string, relativePath: string): Promise<{ handle: FileHandle; relativePath: string }> {
  const folder = join(artifactsDir, posix.dirname(relativePath));
  await ensureFolder(folder);
  const extension = posix.extname(relativePath);
  const stem = relativePath.slice(0, relativePath.length - extension.length);
  for (let attempt = 1; ; attempt += 1) {
    const candidate = attempt === 1 ? relativePath : `${stem}-${attempt}${extension}`;
    try {
      const handle = await open(join(artifactsDir, candidate), 'wx');
      return { handle, relativePath: candidate };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The folder was removed since we made it: make it again.
      if (code === 'ENOENT' && attempt === 1) {
        madeFolders.delete(folder);
        await ensureFolder(folder);
        continue;
      }
      if (code !== 'EEXIST' || attempt >= 1000) throw error;
    }
  }
}

/** Writes a whole artifact file; returns the relative path it got. */
export async function writeArtifact(artifactsDir: string, relativePath: string, content: string): Promise<string> {
  const { handle, relativePath: written } = await createArtifactFile(artifactsDir, relativePath);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
  return written;
}

/** Removes an artifact written for an action that then failed. */
export async function removeArtifact(artifactsDir: string, relativePath: string): Promise<void> {
  await unlink(join(artifactsDir, relativePath)).catch(() => undefined);
}
