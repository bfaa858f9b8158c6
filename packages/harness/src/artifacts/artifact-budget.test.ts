import { spawnSync } from 'node:child_process';
import { link, lstat, mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../errors/harness-error.js';
import { ArtifactBudget, DEFAULT_ARTIFACT_BUDGET_BYTES, formatByteSize, formatRunDiskUse, measureDiskUse, parseByteSize } from './artifact-budget.js';

const mebibyte = 1024 * 1024;
let base: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'agentbench-budget-'));
});

afterEach(() => {
  spawnSync('rm', ['-rf', base]);
});

/** A workspace holding `mebibytes` MiB of real (non-sparse) data in a few files. */
async function workspaceOf(name: string, mebibytes: number): Promise<string> {
  const path = join(base, 'run', 'workspace', name);
  await mkdir(join(path, 'sub'), { recursive: true });
  for (let index = 0; index < mebibytes; index++) await writeFile(join(path, index % 2 === 0 ? 'sub' : '.', `part-${index}`), Buffer.alloc(mebibyte, 1));
  return path;
}

async function blocksOf(...paths: string[]): Promise<number> {
  let bytes = 0;
  for (const path of paths) bytes += (await lstat(path)).blocks * 512;
  return bytes;
}

describe('measureDiskUse', () => {
  it('adds up the blocks of every entry, folders included, and counts a hard-linked file once', async () => {
    const folder = join(base, 'folder');
    await mkdir(join(folder, 'sub'), { recursive: true });
    await writeFile(join(folder, 'a'), Buffer.alloc(100_000, 1));
    await writeFile(join(folder, 'sub', 'b'), Buffer.alloc(10_000, 1));
    await link(join(folder, 'a'), join(folder, 'sub', 'a-again'));
    const use = await measureDiskUse(folder);
    expect(use).toEqual({
      bytes: await blocksOf(folder, join(folder, 'a'), join(folder, 'sub'), join(folder, 'sub', 'b')),
      entries: 5,
      isComplete: true,
    });
  });

  it('does not follow links, and counts sparse files by what they take', async () => {
    const folder = join(base, 'folder');
    await mkdir(folder);
    await mkdir(join(base, 'big'));
    await writeFile(join(base, 'big', 'data'), Buffer.alloc(4 * mebibyte, 1));
    await symlink(join(base, 'big'), join(folder, 'link'));
    const sparse = spawnSync('truncate', ['-s', '10G', join(folder, 'sparse')]);
    expect(sparse.status).toBe(0);
    const use = await measureDiskUse(folder);
    expect(use.bytes).toBe(await blocksOf(folder, join(folder, 'link'), join(folder, 'sparse')));
    expect(use.bytes).toBeLessThan(mebibyte);
  });

  it('is zero for a missing path, and the blocks of a single file', async () => {
    expect(await measureDiskUse(join(base, 'missing'))).toEqual({ bytes: 0, entries: 0, isComplete: true });
    await writeFile(join(base, 'file'), Buffer.alloc(5000, 1));
    expect(await measureDiskUse(join(base, 'file'))).toEqual({ bytes: await blocksOf(join(base, 'file')), entries: 1, isComplete: true });
  });

  it('says when it could not measure everything', async () => {
    const folder = join(base, 'deep');
    await mkdir(join(folder, 'a', 'b', 'c'), { recursive: true });
    expect((await measureDiskUse(folder, { maxDepth: 2 })).isComplete).toBe(false);
    expect((await measureDiskUse(folder, { maxDepth: 3 })).isComplete).toBe(true);
  });
});

describe('ArtifactBudget', () => {
  it('keeps workspaces while the run total fits, then removes them and says so', async () => {
    const budget = new ArtifactBudget({ budgetBytes: 5 * mebibyte });
    const first = await workspaceOf('task-1', 3);
    const second = await workspaceOf('task-2', 3);
    const third = await workspaceOf('task-3', 1);

    const kept = await budget.keepWorkspace(first, { label: 'task-1' });
    expect(kept).toMatchObject({ isKept: true, budgetBytes: 5 * mebibyte });
    expect(kept.note).toBeUndefined();
    expect(kept.bytes).toBeGreaterThan(3 * mebibyte);
    expect(kept.spentBytes).toBe(kept.bytes);

    const over = await budget.keepWorkspace(second, { label: 'task-2' });
    expect(over.isKept).toBe(false);
    expect(over.note).toMatch(/^workspace of task-2 not kept: it takes 3\.0 MiB and 2\.0 MiB of the run's 5\.0 MiB artifact budget is left$/);
    expect(over.spentBytes).toBe(kept.bytes);

    // A smaller one still fits what is left.
    expect((await budget.keepWorkspace(third, { label: 'task-3' })).isKept).toBe(true);
    expect((await readdir(join(base, 'run', 'workspace'))).sort()).toEqual(['task-1', 'task-3']);
    expect(budget.summary()).toMatchObject({ keptWorkspaces: 2, removedWorkspaces: 1, budgetBytes: 5 * mebibyte });
  });

  it('never keeps a workspace with a budget of 0', async () => {
    const budget = new ArtifactBudget({ budgetBytes: 0 });
    const workspace = await workspaceOf('task-1', 0);
    const result = await budget.keepWorkspace(workspace);
    expect(result).toEqual({
      isKept: false,
      bytes: 0,
      spentBytes: 0,
      budgetBytes: 0,
      note: 'workspace not kept: the artifact budget is 0 (workspaces are never kept)',
    });
    expect(await readdir(join(base, 'run', 'workspace'))).toEqual([]);
  });

  it('removes an over-budget workspace without following its links', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'victim'), 'host\n');
    const workspace = await workspaceOf('task-1', 2);
    await symlink(outside, join(workspace, 'out'));
    const result = await new ArtifactBudget({ budgetBytes: mebibyte }).keepWorkspace(workspace);
    expect(result.isKept).toBe(false);
    expect(await readdir(outside)).toEqual(['victim']);
  });

  it('does not let attempts finishing together overspend', async () => {
    const budget = new ArtifactBudget({ budgetBytes: 5 * mebibyte });
    const workspaces = await Promise.all(['a', 'b', 'c', 'd'].map((name) => workspaceOf(name, 2)));
    const results = await Promise.all(workspaces.map((workspace) => budget.keepWorkspace(workspace)));
    expect(results.filter((result) => result.isKept)).toHaveLength(2);
    expect(budget.spentBytes).toBeLessThanOrEqual(5 * mebibyte);
  });

  it('defaults to 1 GiB and refuses a negative budget', () => {
    expect(new ArtifactBudget().budgetBytes).toBe(DEFAULT_ARTIFACT_BUDGET_BYTES);
    expect(DEFAULT_ARTIFACT_BUDGET_BYTES).toBe(1024 ** 3);
    expect(() => new ArtifactBudget({ budgetBytes: -1 })).toThrow(HarnessError);
    expect(() => new ArtifactBudget({ budgetBytes: Number.NaN })).toThrow(HarnessError);
  });
});

describe('formatRunDiskUse', () => {
  it('prints the run total, and the budget when there is one', async () => {
    const budget = new ArtifactBudget({ budgetBytes: 4 * mebibyte });
    await budget.keepWorkspace(await workspaceOf('task-1', 1));
    await budget.keepWorkspace(await workspaceOf('task-2', 5));
    const runDir = join(base, 'run');
    const diskUse = await measureDiskUse(runDir);
    const line = formatRunDiskUse({ runDir, diskUse, budget });
    expect(line).toMatch(new RegExp(`^Disk use: 1\\.\\d MiB in ${runDir} \\(workspaces: 1 kept, 1\\.\\d MiB of the 4\\.0 MiB budget; 1 not kept\\)$`));
    expect(formatRunDiskUse({ runDir: 'artifacts/run-1', diskUse: { bytes: 1536, entries: 3, isComplete: false } })).toBe('Disk use: at least 1.5 KiB in artifacts/run-1');
  });
});

describe('byte sizes', () => {
  it.each([
    ['1073741824', 1073741824],
    ['0', 0],
    ['500MB', 500_000_000],
    ['500 MiB', 500 * mebibyte],
    ['2GiB', 2 * 1024 ** 3],
    ['1.5g', 1.5 * 1024 ** 3],
    ['10k', 10_240],
    ['10KB', 10_000],
    ['unlimited', Number.POSITIVE_INFINITY],
  ])('parses %s', (text, expected) => {
    expect(parseByteSize(text)).toBe(expected);
  });

  it.each(['', 'lots', '-1G', '1iB', '1 GiBs'])('refuses %j', (text) => {
    expect(() => parseByteSize(text)).toThrow(HarnessError);
  });

  it('formats in binary units', () => {
    expect(formatByteSize(0)).toBe('0 bytes');
    expect(formatByteSize(1023)).toBe('1023 bytes');
    expect(formatByteSize(1536)).toBe('1.5 KiB');
    expect(formatByteSize(1024 ** 3)).toBe('1.0 GiB');
  });
});
