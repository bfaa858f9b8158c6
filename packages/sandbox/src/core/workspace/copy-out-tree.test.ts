import { spawnSync } from 'node:child_process';
import { chmod, chown, copyFile, link, lstat, mkdir, mkdtemp, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copySandboxTreeOut } from './copy-out-tree.js';
import { HostWorkspace } from './host-workspace.js';

const isRoot = process.geteuid?.() === 0;
let base: string;
let source: string;
let outside: string;
let destination: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'agentbench-copy-out-'));
  source = join(base, 'sandbox', 'out');
  outside = join(base, 'outside');
  destination = join(base, 'host', 'copied');
  await mkdir(join(source, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'victim'), 'host\n');
});

afterEach(() => {
  spawnSync('rm', ['-rf', base]);
});

async function modeOf(...parts: string[]): Promise<number> {
  return (await lstat(join(destination, ...parts))).mode & 0o7777;
}

describe('copySandboxTreeOut', () => {
  it('strips setuid, setgid, sticky and group/other write', async () => {
    await copyFile('/bin/sh', join(source, 'rootshell'));
    await chmod(join(source, 'rootshell'), 0o4755);
    await writeFile(join(source, 'open'), 'x');
    await chmod(join(source, 'open'), 0o666);
    await chmod(join(source, 'sub'), 0o3777);
    await copySandboxTreeOut(source, destination);
    expect(await modeOf('rootshell')).toBe(0o755);
    expect(await modeOf('open')).toBe(0o644);
    expect(await modeOf('sub')).toBe(0o755);
  });

  it.skipIf(!isRoot)('makes no root-owned setuid copy of a file the sandbox user (65534) made setuid', async () => {
    await copyFile('/bin/sh', join(source, 'rootshell'));
    await chown(join(source, 'rootshell'), 65534, 65534);
    await chmod(join(source, 'rootshell'), 0o4755);
    await copySandboxTreeOut(source, destination);
    const stats = await lstat(join(destination, 'rootshell'));
    expect({ uid: stats.uid, mode: stats.mode & 0o7777 }).toEqual({ uid: 0, mode: 0o755 });
  });

  it('keeps links that stay inside and drops the ones that leave', async () => {
    await writeFile(join(source, 'sub', 'file'), 'x');
    await symlink('/etc', join(source, 'etc'));
    await symlink('../../../outside', join(source, 'up'));
    await symlink('.', join(source, 'self'));
    await symlink('self/..', join(source, 'chain'));
    await symlink('sub/file', join(source, 'inside'));
    await symlink('../inside', join(source, 'sub', 'back'));
    await copySandboxTreeOut(source, destination);
    expect((await readdir(destination)).sort()).toEqual(['inside', 'self', 'sub']);
    expect(await readlink(join(destination, 'inside'))).toBe('sub/file');
    expect(await readlink(join(destination, 'sub', 'back'))).toBe('../inside');
  });

  it.skipIf(!isRoot)('skips devices and FIFOs, and copies hard links as separate files', async () => {
    const made = spawnSync('sh', ['-c', 'mknod null c 1 3 && mkfifo pipe'], { cwd: source, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    await link(join(outside, 'victim'), join(source, 'hard'));
    await copySandboxTreeOut(source, destination);
    expect((await readdir(destination)).sort()).toEqual(['hard', 'sub']);
    expect((await lstat(join(destination, 'hard'))).nlink).toBe(1);
    expect(await readFile(join(destination, 'hard'), 'utf8')).toBe('host\n');
  });

  it('never writes through a link already in the destination', async () => {
    await writeFile(join(source, 'file'), 'from the sandbox\n');
    await writeFile(join(source, 'sub', 'inner'), 'inner\n');
    await mkdir(destination, { recursive: true });
    await symlink(join(outside, 'victim'), join(destination, 'file'));
    await symlink(outside, join(destination, 'sub'));
    await copySandboxTreeOut(source, destination);
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('host\n');
    expect(await readdir(outside)).toEqual(['victim']);
    expect(await readFile(join(destination, 'file'), 'utf8')).toBe('from the sandbox\n');
    expect(await readFile(join(destination, 'sub', 'inner'), 'utf8')).toBe('inner\n');
  });

  it('copies a single file', async () => {
    await writeFile(join(source, 'file'), 'single\n');
    await chmod(join(source, 'file'), 0o2755);
    await copySandboxTreeOut(join(source, 'file'), join(base, 'host', 'deeper', 'file'));
    expect(await readFile(join(base, 'host', 'deeper', 'file'), 'utf8')).toBe('single\n');
    expect((await lstat(join(base, 'host', 'deeper', 'file'))).mode & 0o7777).toBe(0o755);
  });

  it('is what copyOut of the local and bwrap backends uses', async () => {
    const workspace = await HostWorkspace.prepare({}, undefined, 'agentbench-copy-out-workspace-');
    try {
      await mkdir(join(workspace.hostRoot, 'out'));
      await writeFile(join(workspace.hostRoot, 'out', 'tool'), '#!/bin/sh\n');
      await chmod(join(workspace.hostRoot, 'out', 'tool'), 0o4755);
      await symlink(outside, join(workspace.hostRoot, 'out', 'leak'));
      await workspace.copyOut('out', destination);
      expect(await readdir(destination)).toEqual(['tool']);
      expect(await modeOf('tool')).toBe(0o755);
    } finally {
      await workspace.removeIfOwned();
    }
  });
});
