import { lstat, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { giveTreeTo } from './file-owner.js';

const isRoot = process.getuid?.() === 0;
const folders: string[] = [];

async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agentbench-file-owner-'));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe.skipIf(!isRoot)('giveTreeTo (needs root to change owners)', () => {
  it('gives a small tree to the owner in-process, changing links themselves and never what they point to', async () => {
    const base = await temporaryFolder();
    const tree = join(base, 'tree');
    const outside = join(base, 'outside.txt');
    await mkdir(join(tree, 'a', 'b'), { recursive: true });
    await writeFile(join(tree, 'a', 'b', 'file.txt'), 'x');
    await writeFile(outside, 'host file');
    await symlink(outside, join(tree, 'link-to-file'));
    await symlink(base, join(tree, 'link-to-folder'));
    await giveTreeTo(tree, { uid: 4321, gid: 4322 });
    for (const path of [tree, join(tree, 'a'), join(tree, 'a', 'b'), join(tree, 'a', 'b', 'file.txt'), join(tree, 'link-to-file'), join(tree, 'link-to-folder')]) {
      const stats = await lstat(path);
      expect([stats.uid, stats.gid], path).toEqual([4321, 4322]);
    }
    expect((await stat(outside)).uid).toBe(0);
    expect((await stat(base)).uid).toBe(0);
  });

  it('hands a large tree to chown -R, with the same result', async () => {
    const tree = await temporaryFolder();
    await Promise.all(Array.from({ length: 1100 }, (_, index) => writeFile(join(tree, `file-${index}`), '')));
    await symlink('/etc/hostname', join(tree, 'link'));
    await giveTreeTo([tree], { uid: 4321, gid: 4321 });
    expect((await lstat(join(tree, 'file-1099'))).uid).toBe(4321);
    expect((await lstat(join(tree, 'link'))).uid).toBe(4321);
    expect((await stat('/etc/hostname')).uid).toBe(0);
  });

  it('does not enter a link given at the top', async () => {
    const base = await temporaryFolder();
    await mkdir(join(base, 'target'));
    await writeFile(join(base, 'target', 'inner.txt'), '');
    await symlink(join(base, 'target'), join(base, 'link'));
    await giveTreeTo(join(base, 'link'), { uid: 4321, gid: 4321 });
    expect((await lstat(join(base, 'link'))).uid).toBe(4321);
    expect((await stat(join(base, 'target', 'inner.txt'))).uid).toBe(0);
  });
});
