import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { text, uniqueMarker, type ConformanceContext } from './conformance-context.js';

/** The file methods, and the one rule every path obeys: it stays in the workspace, whatever links the sandbox made. */
export function registerFileAndPathSafetyChecks(context: ConformanceContext): void {
  context.check('files.round-trip', 'files', 'writes, reads, lists and copies files and folders in and out, text and binary', async () => {
    const host = await mkdtemp(join(tmpdir(), 'agentbench-conformance-files-'));
    try {
      const sandbox = await context.sandbox({ files: { 'seeded/notes.txt': 'from spec.files\n', 'binary.bin': Uint8Array.from([0, 255, 1]) } });
      expect(text(await sandbox.readFile('seeded/notes.txt'))).toBe('from spec.files\n');
      expect([...(await sandbox.readFile('binary.bin'))]).toEqual([0, 255, 1]);
      await sandbox.writeFile('deep/new/file.txt', 'héllo\n');
      expect(text(await sandbox.readFile(`${sandbox.workdir}/deep/new/file.txt`))).toBe('héllo\n');
      // Commands see what the host wrote, and may change it.
      expect(await sandbox.exec('echo more >> deep/new/file.txt && cat deep/new/file.txt')).toMatchObject({ exitCode: 0, stdout: 'héllo\nmore\n' });
      await sandbox.exec('mkdir -p listing/a/b && echo 12345 > listing/a/b/c.txt && echo x > listing/top.txt && ln -s top.txt listing/link');
      expect(await sandbox.listFiles('listing')).toEqual([
        { path: 'a', type: 'directory', size: 0 },
        { path: 'link', type: 'symlink', size: 0 },
        { path: 'top.txt', type: 'file', size: 2 },
      ]);
      const recursive = await sandbox.listFiles('listing', { recursive: true });
      expect(recursive.map((entry) => entry.path)).toEqual(['a', 'a/b', 'a/b/c.txt', 'link', 'top.txt']);
      expect(recursive.find((entry) => entry.path === 'a/b/c.txt')?.size).toBe(6);

      const source = join(host, 'source');
      await mkdir(join(source, 'nested'), { recursive: true });
      await writeFile(join(source, 'nested', 'data.bin'), Buffer.from([1, 2, 3, 0, 250]));
      await symlink('nested/data.bin', join(source, 'link-to-data'));
      await sandbox.copyIn(source, 'copied');
      expect([...(await sandbox.readFile('copied/nested/data.bin'))]).toEqual([1, 2, 3, 0, 250]);
      expect((await sandbox.exec(['readlink', 'copied/link-to-data'])).stdout).toBe('nested/data.bin\n');
      await sandbox.copyOut('copied', join(host, 'out'));
      expect([...(await readFile(join(host, 'out', 'nested', 'data.bin')))]).toEqual([1, 2, 3, 0, 250]);
      expect(await readlink(join(host, 'out', 'link-to-data'))).toBe('nested/data.bin');
      await expect(sandbox.readFile('no/such/file')).rejects.toMatchObject({ kind: 'file_not_found' });
      await expect(sandbox.listFiles('listing/top.txt')).rejects.toMatchObject({ kind: 'not_a_directory' });
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  context.check('files.dot-dot-and-absolute', 'files', 'refuses paths that leave the workspace through .. or an absolute path outside it (path_escape)', async () => {
    const host = await mkdtemp(join(tmpdir(), 'agentbench-conformance-escape-'));
    try {
      const sandbox = await context.sandbox({ files: { 'src/a.txt': 'a' } });
      await expect(sandbox.readFile('../etc/passwd')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.readFile('/etc/passwd')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.writeFile('/etc/agentbench-conformance', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.writeFile('src/../../agentbench-conformance', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.listFiles('src/../../')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.copyIn(host, '../outside')).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.copyOut('..', join(host, 'never'))).rejects.toMatchObject({ kind: 'path_escape' });
      // .. that stays inside is fine.
      expect(text(await sandbox.readFile('src/../src/a.txt'))).toBe('a');
      await expect(lstat(join(host, 'never'))).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  context.check('files.symlinks-out', 'files', 'refuses to read, write, list or copy out through links the sandbox made to outside the workspace (symlink_blocked)', async () => {
    const host = await mkdtemp(join(tmpdir(), 'agentbench-conformance-links-'));
    try {
      const sandbox = await context.sandbox();
      const dangling = `/tmp/agentbench-conformance-${uniqueMarker()}`;
      const made = await sandbox.exec(
        `ln -s /etc/passwd passwd-link && ln -s /etc etc-link && ln -s ${dangling} dangling-link && echo ok > real.txt && ln -s real.txt inside-link && ln -s ../.. up-link && ln -s /proc/1/root/etc/passwd proc-root-link`,
      );
      expect(made.exitCode, made.stderr).toBe(0);
      await expect(sandbox.readFile('passwd-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(sandbox.readFile('etc-link/passwd')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(sandbox.readFile('up-link/etc/passwd')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      // Through pid 1's root (the host's, for a backend sharing the host's pid namespace): following it may fail (EACCES); refused either way.
      await expect(sandbox.readFile('proc-root-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(sandbox.writeFile('etc-link/agentbench-conformance', 'x')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      // Writing through a dangling link would create its target outside.
      await expect(sandbox.writeFile('dangling-link', 'x')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(sandbox.listFiles('etc-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(sandbox.copyOut('etc-link', join(host, 'etc'))).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(lstat(join(host, 'etc'))).rejects.toMatchObject({ code: 'ENOENT' });
      // Nothing was made through the links, inside the sandbox or on this host.
      expect((await sandbox.exec(`test -e /etc/agentbench-conformance || test -e ${dangling}`)).exitCode).toBe(1);
      await expect(lstat('/etc/agentbench-conformance')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(lstat(dangling)).rejects.toMatchObject({ code: 'ENOENT' });
      // A link that stays inside is followed; listing shows links without following them.
      expect(text(await sandbox.readFile('inside-link'))).toBe('ok\n');
      expect((await sandbox.listFiles()).map((entry) => `${entry.type}:${entry.path}`)).toEqual([
        'symlink:dangling-link',
        'symlink:etc-link',
        'symlink:inside-link',
        'symlink:passwd-link',
        'symlink:proc-root-link',
        'file:real.txt',
        'symlink:up-link',
      ]);
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  const linksNotFollowed = context.options.notKept?.absoluteLinksInsideFollowed;
  context.check(
    'files.absolute-link-inside',
    'absoluteLinksInsideFollowed',
    linksNotFollowed === undefined
      ? 'follows a link the sandbox made with an absolute target inside the workspace'
      : `refuses a link the sandbox made with an absolute target inside the workspace as symlink_blocked, which commands follow (documented: ${linksNotFollowed.why})`,
    async () => {
      const sandbox = await context.sandbox({ files: { 'src/real.txt': 'inside\n' } });
      const made = await sandbox.exec(`ln -s ${sandbox.workdir}/src/real.txt absolute-link && ln -s ${sandbox.workdir}/src absolute-folder-link && cat absolute-link`);
      expect(made).toMatchObject({ exitCode: 0, stdout: 'inside\n' });
      if (linksNotFollowed !== undefined) {
        await expect(sandbox.readFile('absolute-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
        await expect(sandbox.writeFile('absolute-folder-link/new.txt', 'through the link\n')).rejects.toMatchObject({ kind: 'symlink_blocked' });
        await expect(sandbox.listFiles('absolute-folder-link')).rejects.toMatchObject({ kind: 'symlink_blocked' });
        // Refused, not half done: nothing was written, and the real paths still work.
        expect((await sandbox.exec('test -e src/new.txt')).exitCode).toBe(1);
        expect(text(await sandbox.readFile('src/real.txt'))).toBe('inside\n');
        return;
      }
      expect(text(await sandbox.readFile('absolute-link'))).toBe('inside\n');
      await sandbox.writeFile('absolute-folder-link/new.txt', 'through the link\n');
      expect((await sandbox.exec('cat src/new.txt')).stdout).toBe('through the link\n');
    },
  );
}
