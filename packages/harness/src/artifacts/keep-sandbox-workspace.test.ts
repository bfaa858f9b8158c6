import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, link, mkdir, mkdtemp, open, readdir, readFile, symlink, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalSandbox } from '@agentbench/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoopFixture, type LoopFixture } from '../../../agent-loop/test/fixtures.js';
import { executeAttempt } from '../attempt/execute-attempt.js';
import { ArtifactBudget, measureDiskUse } from './artifact-budget.js';
import { discardSandboxWorkspace, keepSandboxWorkspace } from './keep-sandbox-workspace.js';

// What becomes of a sandbox-written workspace once its sandbox is gone: cleaned and measured in
// one walk when it may be kept, removed unwalked when nothing keeps it.

let base: string;
let runDir: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'agentbench-keep-'));
  runDir = path.join(base, 'run');
  workspace = path.join(runDir, 'workspace');
  outside = path.join(base, 'outside');
  await mkdir(path.join(workspace, 'repo', 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(outside, 'victim'), 'host file\n');
  await writeFile(path.join(workspace, 'repo', 'sub', 'data'), Buffer.alloc(100_000, 1));
  // Attacker-written: a link out, a hard link to a host file, a setuid bit.
  await symlink(outside, path.join(workspace, 'repo', 'out'));
  await link(path.join(outside, 'victim'), path.join(workspace, 'repo', 'victim-link'));
  await chmod(path.join(workspace, 'repo', 'sub', 'data'), 0o4755);
});

afterEach(() => {
  // GNU rm: a failed test may leave a tree deeper than PATH_MAX.
  spawnSync('rm', ['-rf', base]);
});

async function hostFileIsIntact(): Promise<void> {
  expect(await readFile(path.join(outside, 'victim'), 'utf8')).toBe('host file\n');
  expect(await readdir(outside)).toEqual(['victim']);
}

describe('keepSandboxWorkspace', () => {
  it('charges the budget with what the sanitizer measured, the same as a walk of the kept tree', async () => {
    const budget = new ArtifactBudget();
    const keep = vi.spyOn(budget, 'keepWorkspace');
    const kept = await keepSandboxWorkspace({ workspaceDir: workspace, runDir, budget, label: 'toy' });
    expect(kept).toMatchObject({ isKept: true, manifest: 'workspace.sanitized.json' });
    const walked = await measureDiskUse(workspace);
    expect(keep).toHaveBeenCalledWith(workspace, { label: 'toy', measured: { bytes: walked.bytes, deepestLevel: 3 } });
    expect(budget.spentBytes).toBe(walked.bytes);
    await hostFileIsIntact();
  });

  it('does not keep a workspace deeper than the budget measures', async () => {
    const budget = new ArtifactBudget({ maxDepth: 2 });
    const kept = await keepSandboxWorkspace({ workspaceDir: workspace, runDir, budget, label: 'toy' });
    expect(kept.isKept).toBe(false);
    expect(kept.note).toMatch(/workspace of toy not kept: it could not be measured whole \(deeper than 2 levels/);
    expect(existsSync(workspace)).toBe(false);
    await hostFileIsIntact();
  });

  it('removes the workspace uncleaned under a budget of 0: no manifest is written', async () => {
    const kept = await keepSandboxWorkspace({ workspaceDir: workspace, runDir, budget: new ArtifactBudget({ budgetBytes: 0 }), label: 'toy' });
    expect(kept).toEqual({ isKept: false, note: 'workspace of toy not kept: the artifact budget is 0 (workspaces are never kept)' });
    expect(await readdir(runDir)).toEqual([]);
    await hostFileIsIntact();
  });
});

describe('discardSandboxWorkspace', () => {
  it('removes the tree without following its links and writes nothing beside it', async () => {
    expect(await discardSandboxWorkspace(workspace)).toBeUndefined();
    expect(await readdir(runDir)).toEqual([]);
    await hostFileIsIntact();
  });

  it('removes a tree deeper than PATH_MAX, which rm alone cannot', async () => {
    const handles: FileHandle[] = [];
    // 20 folders of 250-character names: a path of over 5,000 characters, made through /proc/self/fd.
    let parent = path.join(workspace, 'repo');
    for (let level = 0; level < 20; level += 1) {
      const handle = await open(parent, 'r');
      await mkdir(`/proc/self/fd/${handle.fd}/${'d'.repeat(250)}`);
      parent = `/proc/self/fd/${handle.fd}/${'d'.repeat(250)}`;
      handles.push(handle);
    }
    await writeFile(`${parent}/bottom`, 'x');
    for (const handle of handles.splice(0)) await handle.close();
    expect(await discardSandboxWorkspace(workspace)).toBeUndefined();
    expect(await readdir(runDir)).toEqual([]);
    await hostFileIsIntact();
  });
});

describe('an attempt whose caller keeps no workspace', () => {
  let fixture: LoopFixture | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
    fixture = undefined;
  });

  it.each([
    { discardWorkspace: true, isKept: false },
    { discardWorkspace: false, isKept: true },
  ])('discardWorkspace $discardWorkspace: the workspace is kept $isKept, and the record says so', async ({ discardWorkspace, isKept }) => {
    fixture = await createLoopFixture();
    const attemptDir = path.join(fixture.root, 'attempt');
    const paths = { runDir: attemptDir, logDir: path.join(attemptDir, 'logs'), workspaceDir: path.join(attemptDir, 'workspace') };
    const outcome = await executeAttempt(fixture.task, 'baseline', {
      paths,
      runId: 'run-1',
      createSandbox: (spec) => LocalSandbox.create(spec, { isWarningSilenced: true }),
      discardWorkspace,
    });
    expect(outcome.record.result.failure_reason).toBeNull();
    expect(existsSync(paths.workspaceDir)).toBe(isKept);
    expect(existsSync(path.join(attemptDir, 'workspace.sanitized.json'))).toBe(isKept);
    expect(outcome.record.artifact_paths['workspace']).toBe(isKept ? 'workspace' : undefined);
    expect(outcome.record.artifact_paths['workspace_manifest']).toBe(isKept ? 'workspace.sanitized.json' : undefined);
    expect(outcome.record.artifact_paths['logs']).toBe('logs');
  });
});
