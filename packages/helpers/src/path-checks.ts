import { stat } from 'node:fs/promises';

// Existence checks that answer false instead of throwing. They follow symlinks (stat), as every copy
// they replace did; a caller reading what a sandbox wrote must check for links itself (lstat).

/** Whether anything exists at `target`. */
export async function pathExists(target: string): Promise<boolean> {
  return stat(target).then(
    () => true,
    () => false,
  );
}

/** Whether `target` is a regular file. */
export async function isFile(target: string): Promise<boolean> {
  return stat(target).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** Whether `target` is a directory. */
export async function isDirectory(target: string): Promise<boolean> {
  return stat(target).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
