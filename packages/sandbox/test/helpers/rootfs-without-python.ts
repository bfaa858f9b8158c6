import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Host programs the tiny root file system gets: enough for the bwrap tests' shell commands. */
const PROGRAMS: Record<string, string> = { sh: 'dash', sleep: 'sleep', cat: 'cat', setsid: 'setsid' };

/**
 * Builds, under `folder`, a root file system without python3: the host's dash, sleep, cat
 * and setsid with the shared libraries `ldd` names, and the folders bwrap mounts over.
 * Returns why it cannot be built here (no ldd, a program missing), or undefined.
 */
export async function buildRootfsWithoutPython(folder: string): Promise<string | undefined> {
  // A root folder anyone may read, like any `/` (the sandbox's user is not root on the host).
  await chmod(folder, 0o755);
  for (const inside of ['bin', 'proc', 'dev', 'tmp', 'workspace']) await mkdir(join(folder, inside), { recursive: true });
  for (const [name, program] of Object.entries(PROGRAMS)) {
    let hostPath: string;
    let libraries: string[];
    try {
      hostPath = execFileSync('/bin/sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
      libraries = execFileSync('ldd', [hostPath], { encoding: 'utf8' })
        .split('\n')
        .map((line) => /(\/\S+) \(0x/.exec(line)?.[1])
        .filter((path): path is string => path !== undefined);
    } catch (error) {
      return `cannot build a rootfs without python3 from host programs (${program}: ${(error as Error).message.split('\n')[0]})`;
    }
    await copyFile(hostPath, join(folder, 'bin', name));
    for (const library of libraries) {
      await mkdir(join(folder, dirname(library)), { recursive: true });
      await copyFile(library, join(folder, library));
    }
  }
  return undefined;
}
