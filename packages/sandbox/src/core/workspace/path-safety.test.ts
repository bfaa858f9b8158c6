import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathEscapeError, SandboxError, SymlinkBlockedError } from '../../contract/sandbox-error.js';
import { assertNoSymlinkEscape, resolveWorkspacePath, workspacePathToHost } from './path-safety.js';

describe('resolveWorkspacePath', () => {
  it('resolves relative paths against the workspace', () => {
    expect(resolveWorkspacePath('/workspace', 'src/app.py')).toBe('/workspace/src/app.py');
    expect(resolveWorkspacePath('/workspace', './src/./app.py')).toBe('/workspace/src/app.py');
    expect(resolveWorkspacePath('/workspace', '.')).toBe('/workspace');
    expect(resolveWorkspacePath('/workspace', '')).toBe('/workspace');
  });

  it('drops trailing slashes on the path and on the workdir', () => {
    expect(resolveWorkspacePath('/workspace', 'src/')).toBe('/workspace/src');
    expect(resolveWorkspacePath('/workspace/', 'src//lib/')).toBe('/workspace/src/lib');
  });

  it('accepts .. that stays inside the workspace', () => {
    expect(resolveWorkspacePath('/workspace', 'src/../tests/test_app.py')).toBe('/workspace/tests/test_app.py');
  });

  it('refuses .. that climbs out of the workspace', () => {
    expect(() => resolveWorkspacePath('/workspace', '..')).toThrow(PathEscapeError);
    expect(() => resolveWorkspacePath('/workspace', '../etc/passwd')).toThrow(/"\.\.\/etc\/passwd" resolves outside the workspace \/workspace/);
    expect(() => resolveWorkspacePath('/workspace', 'src/../../workspace2/x')).toThrow(PathEscapeError);
  });

  it('accepts absolute paths inside the workspace and refuses others', () => {
    expect(resolveWorkspacePath('/workspace', '/workspace/a/b')).toBe('/workspace/a/b');
    expect(resolveWorkspacePath('/workspace', '/workspace')).toBe('/workspace');
    expect(() => resolveWorkspacePath('/workspace', '/etc/passwd')).toThrow(PathEscapeError);
    // A sibling sharing the prefix is not inside.
    expect(() => resolveWorkspacePath('/workspace', '/workspace-other/file')).toThrow(PathEscapeError);
  });

  it('reports the error kind and the offending path', () => {
    try {
      resolveWorkspacePath('/workspace', '../secret');
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).kind).toBe('path_escape');
      expect((error as SandboxError).subject).toBe('../secret');
    }
  });

  it('works with a workdir of /', () => {
    expect(resolveWorkspacePath('/', '../../etc')).toBe('/etc');
  });

  it('refuses a relative workdir and NUL bytes', () => {
    expect(() => resolveWorkspacePath('workspace', 'a')).toThrow(/workdir must be an absolute POSIX path/);
    expect(() => resolveWorkspacePath('/workspace', 'a\0b')).toThrow(/NUL byte/);
  });
});

describe('workspacePathToHost', () => {
  it('maps sandbox paths onto the host folder', () => {
    expect(workspacePathToHost('/tmp/host-ws', '/workspace', 'a/b.txt')).toBe('/tmp/host-ws/a/b.txt');
    expect(workspacePathToHost('/tmp/host-ws', '/workspace', '/workspace')).toBe('/tmp/host-ws');
    expect(() => workspacePathToHost('/tmp/host-ws', '/workspace', '../x')).toThrow(PathEscapeError);
  });
});

describe('assertNoSymlinkEscape', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'agentbench-path-safety-')));
    root = join(base, 'workspace');
    outside = join(base, 'outside');
    await mkdir(join(root, 'src'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(join(root, 'src', 'app.py'), 'print(1)\n');
    await writeFile(join(outside, 'secret.txt'), 'secret\n');
    await symlink(join(root, 'src', 'app.py'), join(root, 'inside-link'));
    await symlink('src', join(root, 'relative-inside-dir'));
    await symlink(join(outside, 'secret.txt'), join(root, 'outside-link'));
    await symlink(outside, join(root, 'outside-dir'));
    await symlink(join(outside, 'not-yet-there.txt'), join(root, 'dangling-outside'));
    await symlink(join(root, 'src', 'not-yet-there.txt'), join(root, 'dangling-inside'));
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('accepts plain files, missing files and the root itself', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'src', 'app.py'))).resolves.toBe(join(root, 'src', 'app.py'));
    await expect(assertNoSymlinkEscape(root, join(root, 'new', 'deep', 'file.txt'))).resolves.toBe(root);
    await expect(assertNoSymlinkEscape(root, root)).resolves.toBe(root);
  });

  it('accepts a symlink that points inside the workspace', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'inside-link'))).resolves.toBe(join(root, 'src', 'app.py'));
    await expect(assertNoSymlinkEscape(root, join(root, 'relative-inside-dir', 'app.py'))).resolves.toBe(
      join(root, 'src', 'app.py'),
    );
    await expect(assertNoSymlinkEscape(root, join(root, 'dangling-inside'))).resolves.toBe(root);
  });

  it('refuses a symlink that points outside the workspace', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'outside-link'))).rejects.toThrow(SymlinkBlockedError);
    await expect(assertNoSymlinkEscape(root, join(root, 'outside-link'))).rejects.toThrow(
      /path "outside-link" goes through a symbolic link/,
    );
  });

  it('refuses a path whose ancestor is a symlink to outside, even when the file does not exist', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'outside-dir', 'secret.txt'))).rejects.toThrow(SymlinkBlockedError);
    await expect(assertNoSymlinkEscape(root, join(root, 'outside-dir', 'new', 'file.txt'))).rejects.toThrow(
      SymlinkBlockedError,
    );
  });

  it('refuses a dangling symlink whose target is outside (a write would create it there)', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'dangling-outside'))).rejects.toThrow(SymlinkBlockedError);
  });

  it('refuses a link into another process root (/proc/1/root/…), whether or not we may follow it', async () => {
    // As root the link resolves to the host's /etc/passwd (outside); as anyone else following
    // it fails with EACCES. Either way: symlink_blocked, as for any other link out.
    await symlink('/proc/1/root/etc/passwd', join(root, 'proc-root-link'));
    await symlink('/proc/1/root/etc/agentbench-not-there', join(root, 'proc-root-dangling'));
    await symlink('/proc/1/root', join(root, 'proc-root-dir'));
    for (const path of ['proc-root-link', 'proc-root-dangling', 'proc-root-dir/etc/passwd', 'proc-root-dir/new-file']) {
      await expect(assertNoSymlinkEscape(root, join(root, path)), path).rejects.toThrow(SymlinkBlockedError);
    }
  });

  it('refuses a link whose target cannot be resolved at all (ENAMETOOLONG), and lets other errors through', async () => {
    // A component longer than NAME_MAX (255).
    await symlink(`/${'x'.repeat(300)}/file`, join(root, 'too-long-link'));
    await expect(assertNoSymlinkEscape(root, join(root, 'too-long-link'))).rejects.toThrow(SymlinkBlockedError);
    // No link on the way: the file system's own error, not a link refusal.
    await expect(assertNoSymlinkEscape(root, join(root, `${'y'.repeat(300)}`))).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
  });

  it('refuses symlink loops', async () => {
    await expect(assertNoSymlinkEscape(root, join(root, 'loop-a'))).rejects.toThrow(SymlinkBlockedError);
  });

  it('works when the root itself is reached through a symlink', async () => {
    const linkedRoot = join(base, 'linked-root');
    await symlink(root, linkedRoot);
    await expect(assertNoSymlinkEscape(linkedRoot, join(linkedRoot, 'src', 'app.py'))).resolves.toBe(
      join(root, 'src', 'app.py'),
    );
    await expect(assertNoSymlinkEscape(linkedRoot, join(linkedRoot, 'outside-link'))).rejects.toThrow(SymlinkBlockedError);
  });
});
