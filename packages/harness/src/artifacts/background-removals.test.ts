import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { BackgroundRemovals } from './background-removals.js';

describe('BackgroundRemovals', () => {
  const temporary = useTemporaryDirectory({ prefix: 'background-removals-' });
  const root = (): string => temporary.path;

  it('frees the workspace path at once, removes the folder in the background without following its links, and is done when settled', async () => {
    const outside = path.join(root(), 'host-files');
    await mkdir(outside);
    await writeFile(path.join(outside, 'keep.txt'), 'host\n');
    const workspaces = path.join(root(), 'workspace');
    const workspaceDir = path.join(workspaces, 'task_a');
    await mkdir(path.join(workspaceDir, 'repo', 'deep'), { recursive: true });
    for (let index = 0; index < 50; index += 1) await writeFile(path.join(workspaceDir, 'repo', 'deep', `file-${index}.txt`), 'x');
    // Sandbox-written links to the host: removed as links, their targets untouched.
    await symlink(outside, path.join(workspaceDir, 'repo', 'link-to-host'));
    await symlink(path.join(outside, 'keep.txt'), path.join(workspaceDir, 'link-to-file'));

    const removals = new BackgroundRemovals();
    await removals.start(workspaceDir);
    // The task's folder is free before its removal ends: the removal goes on under a hidden name.
    expect(existsSync(workspaceDir)).toBe(false);
    const [removing] = await readdir(workspaces);
    expect(removing).toMatch(/^\.task_a\.removing-[0-9a-f]{8}$/);

    expect(await removals.settle()).toEqual([]);
    expect(await readdir(workspaces)).toEqual([]);
    expect(await readdir(outside)).toEqual(['keep.txt']);
  });

  it('removes the hidden folders a killed run left mid-removal, and nothing else', async () => {
    const outside = path.join(root(), 'host-files');
    await mkdir(outside);
    const workspaces = path.join(root(), 'workspace');
    for (const name of ['.task_a.removing-0123abcd', '.task_b.removing-89abcdef', 'task_c', '.task_d.removing-xyz', '.hidden']) {
      await mkdir(path.join(workspaces, name, 'repo'), { recursive: true });
      await writeFile(path.join(workspaces, name, 'repo', 'file.txt'), 'x');
    }
    await symlink(outside, path.join(workspaces, '.task_a.removing-0123abcd', 'link-to-host'));

    const removals = new BackgroundRemovals();
    await removals.resumeLeftovers(workspaces);
    expect(await removals.settle()).toEqual([]);
    expect((await readdir(workspaces)).sort()).toEqual(['.hidden', '.task_d.removing-xyz', 'task_c']);
    expect(existsSync(outside)).toBe(true);
    // A run with no workspace folder yet has nothing to resume.
    await removals.resumeLeftovers(path.join(root(), 'no-such-folder'));
  });

  it('has nothing to do for a folder that is not there', async () => {
    const removals = new BackgroundRemovals();
    await removals.start(path.join(root(), 'never-made'));
    expect(await removals.settle()).toEqual([]);
  });

  it('throws when the folder cannot be moved, so the caller removes it in place', async () => {
    const removals = new BackgroundRemovals();
    const file = path.join(root(), 'a-file');
    await writeFile(file, 'x');
    await expect(removals.start(path.join(file, 'below-a-file'))).rejects.toThrow(/ENOTDIR/);
    expect(await removals.settle()).toEqual([]);
  });
});
