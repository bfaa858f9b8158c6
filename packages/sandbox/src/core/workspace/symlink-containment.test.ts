import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symlinkContainment } from './symlink-containment.js';

describe('symlinkContainment', () => {
  let base: string;
  let root: string;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'agentbench-containment-'));
    root = join(base, 'root');
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await writeFile(join(root, 'a', 'file'), 'x');
    await writeFile(join(base, 'outside'), 'x');
    // Links the cases go through.
    await symlink('.', join(root, 'self'));
    await symlink('a/b', join(root, 'deep'));
    await symlink('/etc', join(root, 'etc'));
    await symlink('loop-b', join(root, 'loop-a'));
    await symlink('loop-a', join(root, 'loop-b'));
    await symlink('..', join(root, 'a', 'parent'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const cases: Array<{ link: string; target: string; expected: string }> = [
    { link: 'l', target: 'a/file', expected: 'inside' },
    { link: 'a/b/l', target: '../file', expected: 'inside' },
    { link: 'a/b/l', target: '../../a/b/../file', expected: 'inside' },
    { link: 'l', target: 'not/there/yet', expected: 'inside' },
    { link: 'l', target: 'deep/..', expected: 'inside' },
    { link: 'l', target: 'a/parent/a', expected: 'inside' },
    { link: 'l', target: 'self', expected: 'inside' },
    { link: 'l', target: '/etc', expected: 'absolute' },
    { link: 'l', target: '', expected: 'empty' },
    { link: 'l', target: '..', expected: 'above-root' },
    { link: 'a/b/l', target: '../../../outside', expected: 'above-root' },
    { link: 'l', target: 'missing/../..', expected: 'above-root' },
    { link: 'l', target: 'self/..', expected: 'above-root' },
    { link: 'l', target: 'deep/../../..', expected: 'above-root' },
    { link: 'l', target: 'a/parent/..', expected: 'above-root' },
    { link: 'l', target: 'etc/passwd', expected: 'absolute' },
    { link: 'l', target: 'loop-a', expected: 'too-many-links' },
    { link: '', target: 'a', expected: 'above-root' },
  ];
  it.each(cases)('$link -> "$target" is $expected', async ({ link, target, expected }) => {
    const result = await symlinkContainment(root, link, target);
    expect(result.isInside ? 'inside' : result.reason).toBe(expected);
  });
});
