import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Run folders are private to the user who ran them. */
export const RUN_DIRECTORY_MODE = 0o700;

/**
 * Creates `<parent>/<name>`, or `<name>-2`, `-3`... when it exists, and returns its path. The
 * folder is private (0700): it holds sandbox-written workspaces, which no other host user should
 * reach while an attempt runs (a sandbox's file may be setuid until the kept workspace is cleaned).
 */
export async function createUniqueDirectory(parent: string, name: string): Promise<string> {
  await mkdir(parent, { recursive: true });
  for (let attempt = 1; ; attempt += 1) {
    const candidate = path.join(parent, attempt === 1 ? name : `${name}-${attempt}`);
    try {
      await mkdir(candidate, { mode: RUN_DIRECTORY_MODE });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

