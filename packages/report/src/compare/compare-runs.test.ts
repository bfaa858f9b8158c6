import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AgentEventSchema, AttemptRecordSchema } from '@agentbench/schemas';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { writeSyntheticRunFolder, type SyntheticAttempt } from '../../../../test-support/synthetic-run-folder.js';
import { RunFolderError } from '../errors/run-folder-error.js';
import { compareRuns } from './compare-runs.js';
import { NoCommonTasksError } from './no-common-tasks-error.js';
import { renderComparisonHtml } from './render-comparison-html.js';
import { renderComparisonMarkdown } from './render-comparison-markdown.js';
import { renderComparisonText } from './render-comparison-text.js';

const FIX = { tool: 'apply_patch', params: { unified_diff: '--- a/x.py\n+++ b/x.py\n' } };
const READ = { tool: 'read_file', params: { path: 'src/x.py' } };
const SEARCH = { tool: 'search', params: { query: 'def median' } };

type Call = NonNullable<SyntheticAttempt['tools']>[number];

function task(taskId: string, passed: boolean, tools: Call[] = [READ, FIX], extra: Partial<SyntheticAttempt> = {}): SyntheticAttempt {
  return { taskId, passed, tools, ...extra };
}

const directory = useTemporaryDirectory();

describe('compareRuns', () => {
  it('writes schema-valid records (the fixture is honest)', async () => {
    const dir = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true)]);
    const folder = path.join(dir, 'agent_runs', 't1', 'attempt-1');
    expect(v.safeParse(AttemptRecordSchema, JSON.parse(await readFile(path.join(folder, 'attempt.json'), 'utf8'))).success).toBe(true);
    const events = (await readFile(path.join(folder, 'events.jsonl'), 'utf8')).trim().split('\n');
    expect(events.every((line) => v.safeParse(AgentEventSchema, JSON.parse(line)).success)).toBe(true);
    expect(await readdir(dir)).toContain('run.json');
  });

  it('pairs by task and repeat and finds regressions, fixes and the first divergent tool call', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [
      task('t1', true),
      task('t1', true),
      task('t2', false, [READ, SEARCH]),
      task('t3', true, [READ, FIX], { inputTokens: 1000, outputTokens: 200, costUsd: 0.02, durationSec: 10 }),
      task('only-a', true),
    ]);
    const runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [
      task('t1', true),
      task('t1', false, [READ, SEARCH]),
      task('t2', true, [READ, FIX]),
      task('t3', true, [READ, FIX], { inputTokens: 3000, outputTokens: 400, costUsd: 0.05, durationSec: 30 }),
      task('t3', true),
    ]);
    const comparison = await compareRuns(runA, runB, { now: () => new Date('2026-01-02T00:00:00Z') });
    expect(comparison.counts).toEqual({ pairs: 4, regressions: 1, fixes: 1, bothPassed: 2, bothFailed: 0, errored: 0, unpairedA: 1, unpairedB: 1 });
    expect(comparison.pairs.slice(0, 2).map((pair) => [pair.taskId, pair.repeat, pair.outcome])).toEqual([
      ['t1', 1, 'regression'],
      ['t2', 0, 'fix'],
    ]);
    expect(comparison.tasksOnlyInA).toEqual(['only-a']);
    expect(comparison.unpaired).toEqual([
      { side: 'A', taskId: 'only-a', repeat: 0 },
      { side: 'B', taskId: 't3', repeat: 1 },
    ]);
    // b = 1, c = 1: n = 2, 2 · (1 + 2)/4 > 1 → p = 1
    expect(comparison.mcnemar.pValue).toBe(1);
    const regression = comparison.divergences.find((divergence) => divergence.outcome === 'regression');
    expect(regression).toMatchObject({ taskId: 't1', repeat: 1, index: 1, a: { tool: 'apply_patch' }, b: { tool: 'search', arguments: '{"query":"def median"}' } });
    expect(regression?.trajectoryA.map((step) => step.tool)).toEqual(['read_file', 'apply_patch']);
    // Tokens: pairs t1#1, t1#2, t2, t3 with 1100 each in A except t3 (1200); B: 1100 × 3 + 3400.
    const tokens = comparison.figures.find((figure) => figure.name === 'tokens');
    expect(tokens).toMatchObject({ pairs: 4, totalA: 4500, totalB: 6700, totalDelta: 2200 });
    expect(tokens?.meanDelta).toBeCloseTo(550, 10);
    const time = comparison.figures.find((figure) => figure.name === 'duration_sec');
    expect(time?.totalDelta).toBe(20);
    expect(comparison.passRateDifference?.estimate).toBe(0);
    expect(comparison.verdict.isSignificantlyWorse).toBe(false);
  });

  it('calls B significantly worse when it lost many pairs (McNemar p < 0.05, more regressions than fixes)', async () => {
    const ids = Array.from({ length: 8 }, (_, index) => `task-${index + 1}`);
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', ids.map((taskId) => task(taskId, true)));
    const runB = await writeSyntheticRunFolder(
      path.join(directory.path, 'b'),
      'run-b',
      ids.map((taskId, index) => task(taskId, index === 0, index === 0 ? [READ, FIX] : [SEARCH])),
    );
    const comparison = await compareRuns(runA, runB);
    // b = 7 regressions, c = 0 fixes: p = 2 · 1/128 = 0.015625
    expect(comparison.mcnemar.pValue).toBeCloseTo(0.015625, 12);
    expect(comparison.verdict.isSignificantlyWorse).toBe(true);
    expect(comparison.passRateDifference?.estimate).toBeCloseTo(-0.875, 12);
    expect(comparison.passRateDifference?.upper).toBeLessThan(0);
    expect(comparison.divergences.every((divergence) => divergence.index === 0)).toBe(true);
    // The same runs at a stricter alpha are not significant.
    expect((await compareRuns(runA, runB, { alpha: 0.01 })).verdict.isSignificantlyWorse).toBe(false);

    const markdown = renderComparisonMarkdown(comparison);
    expect(markdown).toContain('B is significantly worse than A (p < 0.05)');
    expect(markdown).toContain('| task-2 | 1 | ❌ pass → fail |');
    expect(markdown).toContain('McNemar exact p = 0.016 (7 regressions, 0 fixes)');
    const text = renderComparisonText(comparison);
    expect(text).toContain('7 regressions, 0 fixes');
    expect(text).toMatch(/A: read_file \{"path":"src\/x\.py"\}\n {2}B: search \{"query":"def median"\}/);
    const html = renderComparisonHtml(comparison);
    expect(html.match(/data-testid="changed-task"/g)).toHaveLength(7);
    expect(html.match(/data-testid="divergence-row"/g)).toHaveLength(7);
  });

  it('leaves errored pairs out of the statistics', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true), task('t2', true)]);
    const runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [task('t1', false, [READ], { failureReason: 'SANDBOX_ERROR' }), task('t2', true)]);
    const comparison = await compareRuns(runA, runB);
    expect(comparison.counts).toMatchObject({ pairs: 1, errored: 1, regressions: 0 });
    expect(comparison.divergences).toEqual([]);
  });

  it('says when the trajectories are the same call for call', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true)]);
    const runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [task('t1', false)]);
    const [divergence] = (await compareRuns(runA, runB)).divergences;
    expect(divergence).toMatchObject({ index: null, note: 'the same tool calls with the same arguments: the outcome changed after them' });
  });

  it('treats arguments with keys in another order as the same call', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true, [{ tool: 'run', params: { command: 'pytest', timeout_sec: 60 } }, READ])]);
    const runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [task('t1', false, [{ tool: 'run', params: { timeout_sec: 60, command: 'pytest' } }])]);
    const [divergence] = (await compareRuns(runA, runB)).divergences;
    expect(divergence).toMatchObject({ index: 1, a: { tool: 'read_file' }, b: null });
  });

  it('refuses runs with no task in common, naming both folders', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true)]);
    const runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [task('t2', true)]);
    const error = await compareRuns(runA, runB).catch((caught: unknown) => caught);
    expect(NoCommonTasksError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`${runA} and ${runB} have no task in common (A: t1; B: t2): compare runs of the same tasks`);
  });

  it('refuses a folder that is not a run', async () => {
    const runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true)]);
    await directory.write('empty/readme.txt', 'nothing here');
    const error = await compareRuns(runA, path.join(directory.path, 'empty')).catch((caught: unknown) => caught);
    expect(RunFolderError.isInstance(error)).toBe(true);
    expect(await compareRuns(path.join(directory.path, 'missing'), runA).catch((caught: Error) => caught.message)).toContain('missing: no such folder');
  });
});
