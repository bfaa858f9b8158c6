import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDeepTree, WALK_MODES } from '../../test/helpers/deep-tree.js';
import { removeTree, walkDirectory } from './directory-walk.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'agentbench-walk-'));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'dir'), { recursive: true });
  await writeFile(join(root, 'dir', 'secret'), 'inside\n');
  await mkdir(outside);
  await writeFile(join(outside, 'victim'), 'host\n');
});

afterEach(() => {
  spawnSync('rm', ['-rf', base]);
});

describe.each(WALK_MODES)('walkDirectory $name', ({ settings }) => {
  it('never enters a folder swapped for a link after lstat saw it', async () => {
    const seen: string[] = [];
    const failed: string[] = [];
    await walkDirectory(
      root,
      {
        async onEntry(entry) {
          seen.push(entry.relativePath);
          if (entry.name === 'dir') {
            await rename(join(root, 'dir'), join(root, 'moved'));
            await symlink(outside, join(root, 'dir'));
          }
          return entry.stats.isDirectory();
        },
        async onOpenFailed(entry, error) {
          failed.push(`${entry.relativePath}: ${(error as NodeJS.ErrnoException).code}`);
        },
      },
      settings,
    );
    expect(seen.filter((path) => path.includes('victim'))).toEqual([]);
    expect(failed).toEqual([expect.stringMatching(/^dir: (ELOOP|ENOTDIR)$/)]);
  });

  it('never enters a folder replaced by another one after lstat saw it', async () => {
    const failed: string[] = [];
    await walkDirectory(
      root,
      {
        async onEntry(entry) {
          if (entry.name === 'dir') {
            await rename(join(root, 'dir'), join(root, 'moved'));
            await mkdir(join(root, 'dir'));
          }
          return entry.relativePath === 'dir';
        },
        async onOpenFailed(entry, error) {
          failed.push(`${entry.relativePath}: ${(error as NodeJS.ErrnoException).code}`);
        },
      },
      settings,
    );
    expect(failed).toEqual(['dir: ECHANGED']);
  });

  it('refuses a root that is a link', async () => {
    await symlink(outside, join(base, 'link'));
    await expect(walkDirectory(join(base, 'link'), { onEntry: async () => true }, settings)).rejects.toMatchObject({ code: expect.stringMatching(/ELOOP|ENOTDIR/) });
  });

  it('removes a tree without following its links', async () => {
    await symlink(outside, join(root, 'dir', 'to-outside'));
    await symlink(join(outside, 'victim'), join(root, 'victim-link'));
    makeDeepTree(join(root, 'dir'), 50, 'every-level');
    await removeTree(root, settings);
    expect(await readdir(base)).toEqual(['outside']);
    expect(await readdir(outside)).toEqual(['victim']);
  });
});

describe('walkDirectory through /proc/self/fd', () => {
  it('keeps walking the folder it opened when a component above is swapped for a link', async () => {
    const seen: string[] = [];
    await walkDirectory(root, {
      async onDirectory(directory) {
        if (directory.relativePath === 'dir') {
          await rename(join(root, 'dir'), join(root, 'moved'));
          await symlink(outside, join(root, 'dir'));
        }
      },
      async onEntry(entry) {
        seen.push(entry.relativePath);
        return entry.relativePath === 'dir';
      },
    });
    expect(seen.sort()).toEqual(['dir', 'dir/secret']);
  });

  it('removes a tree deeper than PATH_MAX', async () => {
    makeDeepTree(join(root, 'dir'), 3000, 'every-level');
    await removeTree(root);
    expect(await readdir(base)).toEqual(['outside']);
  });

  it('removes nothing when the path is missing', async () => {
    await removeTree(join(base, 'missing'));
    await removeTree(join(base, 'missing', 'deeper'));
    expect((await readdir(base)).sort()).toEqual(['outside', 'root']);
  });
});
