import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { writeSyntheticRunFolder, type SyntheticAttempt } from '../../../test-support/synthetic-run-folder.js';
import { runCli } from './run-cli.js';

const READ = { tool: 'read_file', params: { path: 'src/toy_calc/stats.py' } };
const FIX = { tool: 'apply_patch', params: { unified_diff: '--- a/src/toy_calc/stats.py\n+++ b/src/toy_calc/stats.py\n' } };
const GIVE_UP = { tool: 'search', params: { query: 'median' } };
const TASKS = Array.from({ length: 8 }, (_, index) => `task-${index + 1}`);

let directory: TemporaryDirectory;
let before: string;
let worse: string;
let same: string;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  const attempts = (isPassed: (index: number) => boolean): SyntheticAttempt[] =>
    TASKS.map((taskId, index) => ({ taskId, passed: isPassed(index), tools: isPassed(index) ? [READ, FIX] : [READ, GIVE_UP] }));
  before = await writeSyntheticRunFolder(path.join(directory.path, 'before'), 'run-before', attempts(() => true));
  // 7 of 8 regress: McNemar exact p = 2/2^7 = 0.015625 < 0.05.
  worse = await writeSyntheticRunFolder(path.join(directory.path, 'worse'), 'run-worse', attempts((index) => index === 0));
  // 1 regression: p = 1.
  same = await writeSyntheticRunFolder(path.join(directory.path, 'same'), 'run-same', attempts((index) => index !== 3));
});
afterEach(async () => {
  await directory.remove();
});

describe('ab compare', () => {
  it('prints tables with the regressions and where the trajectories part', async () => {
    const run = await runCli(['compare', before, same]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('8 pairs: 1 regression, 0 fixes, 7 both passed, 0 both failed');
    expect(run.stdout).toContain('McNemar exact p = 1 (1 regression, 0 fixes)');
    expect(run.stdout).toMatch(/task-4 +1 +pass → fail +passed +TESTS_FAILED +tool call 2/);
    expect(run.stdout).toContain('  A: apply_patch {"unified_diff":"--- a/src/toy_calc/stats.py\\n+++ b/src/toy_calc/stats.py\\n"}');
    expect(run.stdout).toContain('  B: search {"query":"median"}');
  });

  it('writes a pull-request comment with --format md', async () => {
    const run = await runCli(['compare', before, worse, '--format', 'md']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.startsWith('## AgentBench: B vs A\n')).toBe(true);
    expect(run.stdout).toContain('**🔴 B is significantly worse than A (p < 0.05)**');
    expect(run.stdout).toContain('### Changed tasks (7)');
    expect(run.stdout).toContain('| task-2 | 1 | ❌ pass → fail | passed | TESTS_FAILED | tool call 2 |');
  });

  it('prints the whole comparison with --format json', async () => {
    const run = await runCli(['compare', before, worse, '--format', 'json']);
    expect(run.exitCode).toBe(0);
    const comparison = JSON.parse(run.stdout);
    expect(comparison.version).toBe(1);
    expect(comparison.counts).toMatchObject({ pairs: 8, regressions: 7, fixes: 0, bothPassed: 1 });
    expect(comparison.mcnemar.pValue).toBeCloseTo(0.015625, 12);
    expect(comparison.passRateDifference).toMatchObject({ estimate: -0.875, resamples: 10000, seed: 20240101, level: 0.95 });
    expect(comparison.divergences[0]).toMatchObject({ taskId: 'task-2', index: 1, a: { tool: 'apply_patch' }, b: { tool: 'search' } });
  });

  it('exits 1 with --fail-on-regression only when B is significantly worse', async () => {
    const failing = await runCli(['compare', before, worse, '--fail-on-regression']);
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toContain('B is significantly worse than A (McNemar exact p = 0.0156 < 0.05, 7 regressions, 0 fixes)');
    expect((await runCli(['compare', before, same, '--fail-on-regression'])).exitCode).toBe(0);
    // B better than A is never a failure.
    expect((await runCli(['compare', worse, before, '--fail-on-regression'])).exitCode).toBe(0);
    // A stricter alpha: p = 0.0156 is not below 0.01.
    expect((await runCli(['compare', before, worse, '--fail-on-regression', '--alpha', '0.01'])).exitCode).toBe(0);
  });

  it('writes the side-by-side HTML page with --out', async () => {
    const out = path.join(directory.path, 'compare.html');
    const run = await runCli(['compare', before, worse, '--format', 'html', '--out', out]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(`wrote ${out} (html: 8 pairs, 7 regressions, 0 fixes, McNemar p = 0.0156)\n`);
    const html = await readFile(out, 'utf8');
    expect(html.match(/data-testid="divergence-row"/g)).toHaveLength(7);
    expect(html).toContain('<th>A</th><th>B</th>');
  });

  it('refuses two runs with no task in common in one line, without a stack trace', async () => {
    const other = await writeSyntheticRunFolder(path.join(directory.path, 'other'), 'run-other', [{ taskId: 'elsewhere', passed: true }]);
    const run = await runCli(['compare', before, other]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`${before} and ${other} have no task in common`);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a folder without runs, and a bad --alpha', async () => {
    const missing = await runCli(['compare', before, path.join(directory.path, 'nowhere')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('nowhere: no such folder');
    const alpha = await runCli(['compare', before, worse, '--alpha', '5']);
    expect(alpha.exitCode).toBe(1);
    expect(alpha.stderr).toContain('--alpha: expected a number between 0 and 1 such as 0.05, found 5');
  });

  it('explains itself in --help', async () => {
    const run = await runCli(['compare', '--help']);
    expect(run.stdout).toContain('--fail-on-regression');
    expect(run.stdout).toContain("McNemar's exact test");
    expect(run.stdout).toContain('seed 20240101');
    expect(run.stdout).toContain('cost unknown: no price for model X');
    expect(run.stdout).toContain('A scripted → B openai/gpt-4o #2–#10');
  });
});
