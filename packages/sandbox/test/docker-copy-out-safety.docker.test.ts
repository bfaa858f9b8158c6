import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

// What a sandbox writes is attacker-written: a folder copied out of a container must land
// without setuid/setgid bits and without links that lead out of the destination.

const context = await useDockerTestContext('docker-copy-out-safety.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox copyOut of hostile files' : `DockerSandbox copyOut of hostile files (skipped: ${context.skipReason})`;
const isRoot = process.getuid?.() === 0;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let sandbox: DockerSandbox;
  let folder: string;

  beforeAll(async () => {
    sandbox = await context.createSandbox({}, 'copy-out-safety');
    folder = await mkdtemp(join(tmpdir(), 'agentbench-copy-out-safety-'));
    // The destination's parent must be searchable by `nobody` for the probe below.
    await chmod(folder, 0o755);
  });

  afterAll(async () => {
    await sandbox?.dispose();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('strips setuid/setgid bits and drops links that leave the destination', async () => {
    const made = await sandbox.exec(
      [
        'mkdir -p out/sub out/shared',
        'cp /bin/dash out/rootshell && chmod 4755 out/rootshell',
        'chmod 2777 out/shared',
        'ln -s /etc out/etc',
        'ln -s ../../.. out/sub/up',
        'ln -s . out/self && ln -s self/.. out/chain',
        'ln -s sub out/inside',
        'echo data > out/sub/file',
        'stat -c "%a %n" out/rootshell out/shared',
      ].join(' && '),
    );
    expect(made.exitCode, made.stderr).toBe(0);
    // The container really made them: the bits are there before the copy.
    expect(made.stdout).toContain('4755 out/rootshell');
    expect(made.stdout).toContain('2777 out/shared');

    const destination = join(folder, 'copied');
    await sandbox.copyOut('out', destination);

    expect((await readdir(destination)).sort()).toEqual(['inside', 'rootshell', 'self', 'shared', 'sub']);
    expect((await lstat(join(destination, 'rootshell'))).mode & 0o7777).toBe(0o755);
    expect((await lstat(join(destination, 'shared'))).mode & 0o7777).toBe(0o755);
    expect((await readdir(join(destination, 'sub'))).sort()).toEqual(['file']);
    expect(await readlink(join(destination, 'inside'))).toBe('sub');
    expect(await readlink(join(destination, 'self'))).toBe('.');
  });

  it.skipIf(!isRoot)('the copied shell gives user nobody no root', async () => {
    const shell = join(folder, 'copied', 'rootshell');
    // `-p`: dash keeps a setuid euid only when asked; without it the probe could never fail.
    const probe = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', shell, '-p', '-c', 'id -u'], { encoding: 'utf8' });
    expect(probe.status, probe.stderr).toBe(0);
    expect(probe.stdout.trim()).toBe('65534');
  });
});
