import { existsSync, constants as fsConstants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readlink, symlink, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { symlinkContainment } from './symlink-containment.js';

const directoryFlags = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;
const sourceFileFlags = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;
const newFileFlags = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;
const hasProcFileDescriptors = existsSync('/proc/self/fd');

/**
 * Copies a sandbox-written file or folder out to the host (`copyOut` of the local and bwrap
 * backends). The sandbox may still be running, so the source can change while it is read:
 * folders are opened `O_NOFOLLOW` and read through `/proc/self/fd`, files opened
 * `O_NOFOLLOW` and checked to be what `lstat` saw. On the host side:
 *
 * - modes keep `0o755` at most, plus owner read/write (search on folders): no setuid,
 *   setgid, sticky, group or other write (a bwrap sandbox's `chmod 4755` must not become a
 *   root-owned setuid file because we copy it);
 * - files are created new (`O_EXCL | O_NOFOLLOW`, whatever was there removed first), so a
 *   link already in the destination is never written through;
 * - symbolic links are copied as links, then removed unless they resolve inside the
 *   destination (`symlinkContainment`); devices, FIFOs and sockets are skipped.
 */
export async function copySandboxTreeOut(source: string, destination: string): Promise<void> {
  const links: Array<{ relativePath: string; path: string; target: string }> = [];
  const stats = await lstat(source);
  await copyEntry({ sourcePath: source, stats, destination, relativePath: '', links });
  for (const link of links) {
    const containment = await symlinkContainment(destination, link.relativePath, link.target);
    if (containment.isInside) continue;
    if ((await lstat(link.path).catch(() => undefined))?.isSymbolicLink() === true) await unlink(link.path);
  }
}

interface CopyStep {
  /** A path that reaches the source entry without following anything above it. */
  sourcePath: string;
  stats: Stats;
  destination: string;
  relativePath: string;
  links: Array<{ relativePath: string; path: string; target: string }>;
}

async function copyEntry(step: CopyStep): Promise<void> {
  const { stats, destination } = step;
  if (stats.isDirectory()) {
    await copyFolder(step);
  } else if (stats.isSymbolicLink()) {
    // The top of a copy is the caller's real path, never a link; one below is copied as a link.
    if (step.relativePath === '') return;
    const target = await readlink(step.sourcePath);
    await clearForEntry(destination);
    await symlink(target, destination);
    step.links.push({ relativePath: step.relativePath, path: destination, target });
  } else if (stats.isFile()) {
    await copyFile(step);
  }
  // Sockets, FIFOs and devices are not copied: they mean nothing in another folder.
}

async function copyFolder(step: CopyStep): Promise<void> {
  const handle = await open(step.sourcePath, directoryFlags);
  try {
    assertSame(await handle.stat(), step.stats, step.sourcePath);
    const existing = await lstat(step.destination).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory()) await unlink(step.destination);
    // The top may need its parents; below, parents are ours and real.
    if (existing?.isDirectory() !== true) await mkdir(step.destination, { recursive: step.relativePath === '', mode: 0o700 });
    await chmod(step.destination, (step.stats.mode & 0o755) | 0o700);
    const base = hasProcFileDescriptors ? `/proc/self/fd/${handle.fd}` : step.sourcePath;
    for (const name of await readdir(base)) {
      const sourcePath = `${base}/${name}`;
      const stats = await lstat(sourcePath).catch(() => undefined);
      if (stats === undefined) continue;
      const relativePath = step.relativePath === '' ? name : `${step.relativePath}/${name}`;
      await copyEntry({ sourcePath, stats, destination: join(step.destination, name), relativePath, links: step.links });
    }
  } finally {
    await handle.close();
  }
}

async function copyFile(step: CopyStep): Promise<void> {
  const source = await open(step.sourcePath, sourceFileFlags);
  try {
    assertSame(await source.stat(), step.stats, step.sourcePath);
    if (step.relativePath === '') await mkdir(dirname(step.destination), { recursive: true });
    await clearForEntry(step.destination);
    const copy: FileHandle = await open(step.destination, newFileFlags, 0o600);
    try {
      const buffer = Buffer.allocUnsafe(1024 * 1024);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        let written = 0;
        while (written < bytesRead) written += (await copy.write(buffer, written, bytesRead - written)).bytesWritten;
      }
      await copy.chmod((step.stats.mode & 0o755) | 0o600);
    } finally {
      await copy.close();
    }
  } finally {
    await source.close();
  }
}

/** Removes what stands where a non-folder entry goes (a folder there is an error, as before). */
async function clearForEntry(path: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing !== undefined && !existing.isDirectory()) await unlink(path);
}

function assertSame(opened: Stats, expected: Stats, path: string): void {
  if (opened.dev !== expected.dev || opened.ino !== expected.ino) {
    throw Object.assign(new Error(`copyOut: ${path} changed while it was being copied`), { code: 'ECHANGED' });
  }
}
