import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { SandboxError } from '../../contract/sandbox-error.js';

/**
 * `SandboxSpec.workdir` as every backend with its own root takes it: an absolute path, normalized,
 * never "/" (the workspace is mounted there, and "/" would cover the whole system).
 */
export function checkWorkdir(workdir: string): string {
  if (typeof workdir !== 'string' || !posix.isAbsolute(workdir)) {
    throw new SandboxError('invalid_spec', `SandboxSpec.workdir: expected an absolute path such as "/workspace", found ${JSON.stringify(workdir)}`);
  }
  const normalized = posix.resolve(workdir);
  if (normalized === '/') throw new SandboxError('invalid_spec', 'SandboxSpec.workdir: the workspace cannot be "/"');
  return normalized;
}

/** An exec's working directory (`ExecOptions.cwd`, shown as the caller wrote it) must be a folder of the workspace. */
export async function assertDirectory(hostPath: string, shownPath: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(hostPath)).isDirectory();
  } catch {
    throw new SandboxError('file_not_found', `exec: working directory "${shownPath}" does not exist in the workspace`, {
      subject: shownPath,
    });
  }
  if (!isDirectory) {
    throw new SandboxError('not_a_directory', `exec: working directory "${shownPath}" is not a folder`, { subject: shownPath });
  }
}
