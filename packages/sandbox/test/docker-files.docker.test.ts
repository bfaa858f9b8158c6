import { chmod, chown, lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { PathEscapeError, SandboxError, SymlinkBlockedError } from '../src/contract/sandbox-error.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('docker-files.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox files' : `DockerSandbox files (skipped: ${context.skipReason})`;
const temporaryFolders: string[] = [];

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let sandbox: DockerSandbox;
  let hostWorkspace: string;

  beforeAll(async () => {
    hostWorkspace = await temporaryFolder('agentbench-host-workspace-');
    await mkdir(join(hostWorkspace, 'src', 'pkg'), { recursive: true });
    await writeFile(join(hostWorkspace, 'src', 'pkg', 'module.py'), 'VALUE = 42\n');
    await writeFile(join(hostWorkspace, 'README.md'), '# project\n');
    sandbox = await context.createSandbox(
      { hostWorkspace, files: { 'extra/notes.txt': 'from spec.files\n', 'binary.bin': Uint8Array.from([0, 255, 1]) } },
      'files',
    );
  });

  afterAll(async () => {
    await sandbox?.dispose();
  });

  it('fills the workspace from hostWorkspace and spec.files', async () => {
    expect(Buffer.from(await sandbox.readFile('src/pkg/module.py')).toString()).toBe('VALUE = 42\n');
    expect(Buffer.from(await sandbox.readFile('extra/notes.txt')).toString()).toBe('from spec.files\n');
    expect([...(await sandbox.readFile('binary.bin'))]).toEqual([0, 255, 1]);
    // The command user owns what was copied in, so it can change it.
    const touch = await sandbox.exec(['sh', '-c', 'echo more >> README.md && cat README.md']);
    expect(touch.stdout).toBe('# project\nmore\n');
  });

  it('round-trips writeFile and readFile, text and binary, creating parent folders', async () => {
    await sandbox.writeFile('deep/new/file.txt', 'héllo\n');
    expect(Buffer.from(await sandbox.readFile('deep/new/file.txt')).toString('utf8')).toBe('héllo\n');
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, index) => (index * 7) % 256);
    await sandbox.writeFile('/workspace/big.bin', bytes);
    const back = await sandbox.readFile('big.bin');
    expect(back.length).toBe(bytes.length);
    expect(Buffer.from(back).equals(Buffer.from(bytes))).toBe(true);
    const seen = await sandbox.exec(['sha256sum', 'big.bin']);
    expect(seen.exitCode).toBe(0);
  });

  it('refuses paths that go through a symbolic link to outside the workspace', async () => {
    await sandbox.exec(['ln', '-sfn', '/etc', 'etc-link']);
    await expect(sandbox.readFile('etc-link/passwd')).rejects.toBeInstanceOf(SymlinkBlockedError);
    await expect(sandbox.writeFile('etc-link/evil', 'x')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    await expect(sandbox.listFiles('etc-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    await sandbox.exec(['ln', '-sf', '/etc/hostname', 'file-link']);
    await expect(sandbox.readFile('file-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    const copyTarget = await temporaryFolder('agentbench-copy-blocked-');
    await expect(sandbox.copyOut('etc-link', join(copyTarget, 'etc'))).rejects.toMatchObject({ kind: 'symlink_blocked' });
    expect((await sandbox.exec(['test', '-e', '/etc/evil'])).exitCode).toBe(1);
    // A link into the root of a process we may not trace (it made itself non-dumpable):
    // following it fails with EACCES, and it is refused like any link out, not an internal error.
    const privateProcess = await sandbox.exec([
      'sh',
      '-c',
      `setsid python3 -c 'import ctypes, os, time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); open("/tmp/pid.partial", "w").write(str(os.getpid())); os.rename("/tmp/pid.partial", "/tmp/undumpable.pid"); time.sleep(120)' > /dev/null 2>&1 &
      while [ ! -e /tmp/undumpable.pid ]; do sleep 0.05; done
      ln -sfn "/proc/$(cat /tmp/undumpable.pid)/root" proc-root-link; cat proc-root-link/etc/hostname`,
    ]);
    expect(privateProcess.stderr).toMatch(/Permission denied/);
    await expect(sandbox.readFile('proc-root-link/etc/passwd')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    await expect(sandbox.writeFile('proc-root-link/tmp/evil', 'x')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    await expect(sandbox.listFiles('proc-root-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
    await sandbox.exec(['sh', '-c', 'rm proc-root-link; kill "$(cat /tmp/undumpable.pid)"']);
    // A link that stays inside the workspace is followed.
    await sandbox.exec(['ln', '-sfn', 'src/pkg', 'inside-link']);
    expect(Buffer.from(await sandbox.readFile('inside-link/module.py')).toString()).toBe('VALUE = 42\n');
  });

  it('gives typed errors for missing files and folders read as files', async () => {
    await expect(sandbox.readFile('no/such/file')).rejects.toMatchObject({ kind: 'file_not_found' });
    await expect(sandbox.readFile('src')).rejects.toMatchObject({ kind: 'file_not_found' });
    await expect(sandbox.listFiles('README.md')).rejects.toMatchObject({ kind: 'not_a_directory' });
    const error = await sandbox.readFile('missing.txt').catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error)).toBe(true);
  });

  it('round-trips a folder through copyIn and copyOut: contents, modes, links, long names', async () => {
    const source = await temporaryFolder('agentbench-copy-source-');
    const longName = `${'long-segment-'.repeat(12)}end.txt`;
    await mkdir(join(source, 'nested', 'deeper'), { recursive: true });
    await mkdir(join(source, 'empty'));
    await writeFile(join(source, 'nested', 'deeper', longName), 'long name body\n');
    await writeFile(join(source, 'script.sh'), '#!/bin/sh\necho run\n');
    await chmod(join(source, 'script.sh'), 0o755);
    await writeFile(join(source, 'data.bin'), Buffer.from([1, 2, 3, 0, 250]));
    await symlink('nested/deeper', join(source, 'link-to-deeper'));

    await sandbox.copyIn(source, 'copied');
    const run = await sandbox.exec(['./copied/script.sh']);
    expect(run.stdout).toBe('run\n');
    expect(Buffer.from(await sandbox.readFile(`copied/nested/deeper/${longName}`)).toString()).toBe('long name body\n');
    expect((await sandbox.exec(['readlink', 'copied/link-to-deeper'])).stdout).toBe('nested/deeper\n');
    expect((await sandbox.exec(['test', '-d', 'copied/empty'])).exitCode).toBe(0);

    const destination = join(await temporaryFolder('agentbench-copy-out-'), 'result');
    await sandbox.copyOut('copied', destination);
    expect(await readFile(join(destination, 'nested', 'deeper', longName), 'utf8')).toBe('long name body\n');
    expect([...(await readFile(join(destination, 'data.bin')))]).toEqual([1, 2, 3, 0, 250]);
    expect((await stat(join(destination, 'script.sh'))).mode & 0o777).toBe(0o755);
    expect(await readlink(join(destination, 'link-to-deeper'))).toBe('nested/deeper');
    expect((await lstat(join(destination, 'empty'))).isDirectory()).toBe(true);
  });

  it('copies single files in and out', async () => {
    const folder = await temporaryFolder('agentbench-copy-file-');
    await writeFile(join(folder, 'in.txt'), 'single file\n');
    await sandbox.copyIn(join(folder, 'in.txt'), 'files/renamed.txt');
    expect(Buffer.from(await sandbox.readFile('files/renamed.txt')).toString()).toBe('single file\n');
    await sandbox.copyOut('files/renamed.txt', join(folder, 'out.txt'));
    expect(await readFile(join(folder, 'out.txt'), 'utf8')).toBe('single file\n');
    await expect(sandbox.copyIn(join(folder, 'missing'), 'x')).rejects.toMatchObject({ kind: 'file_not_found' });
    await expect(sandbox.copyOut('files/missing.txt', join(folder, 'never'))).rejects.toMatchObject({ kind: 'file_not_found' });
  });

  it('mounts a host folder as the workspace, run as its owner, writes visible on the host', async () => {
    const mounted = await temporaryFolder('agentbench-mounted-');
    await writeFile(join(mounted, 'host.txt'), 'from host\n');
    // As root, hand the folder to an ordinary user so the non-root path is the one tested.
    if (process.getuid?.() === 0) {
      await chown(mounted, 4321, 4321);
      await chown(join(mounted, 'host.txt'), 4321, 4321);
    }
    const mountedSandbox = await context.createSandbox({ mountWorkspace: mounted, files: { 'seeded.txt': 'seeded\n' } }, 'mount');
    try {
      expect(Buffer.from(await mountedSandbox.readFile('host.txt')).toString()).toBe('from host\n');
      await mountedSandbox.exec(['sh', '-c', 'echo from sandbox > made.txt']);
      expect(await readFile(join(mounted, 'made.txt'), 'utf8')).toBe('from sandbox\n');
      expect(await readFile(join(mounted, 'seeded.txt'), 'utf8')).toBe('seeded\n');
      const owner = await stat(mounted);
      const made = await stat(join(mounted, 'made.txt'));
      const seeded = await stat(join(mounted, 'seeded.txt'));
      expect([made.uid, made.gid]).toEqual([owner.uid, owner.gid]);
      expect([seeded.uid, seeded.gid]).toEqual([owner.uid, owner.gid]);
      expect((await mountedSandbox.exec(['id', '-u'])).stdout.trim()).toBe(String(owner.uid));
      // The host user's own files stay writable from inside.
      expect((await mountedSandbox.exec(['sh', '-c', 'echo changed > host.txt'])).exitCode).toBe(0);
      expect(await readFile(join(mounted, 'host.txt'), 'utf8')).toBe('changed\n');
    } finally {
      await mountedSandbox.dispose();
    }
  });
});
