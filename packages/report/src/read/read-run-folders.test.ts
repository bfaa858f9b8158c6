import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAgentRun, writeScenarioRun, writeSuiteRun } from '../../test/helpers/write-artifacts.js';
import { RunFolderError } from '../errors/run-folder-error.js';
import { readRunFolders } from './read-run-folders.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const temporary = useTemporaryDirectory({ prefix: 'ab-report-read-' });

describe('readRunFolders', () => {
  it('reads a suite run: records, run.json, stage timeline with log previews, and reports the torn line', async () => {
    const dir = await writeSuiteRun(temporary.path);
    const model = await readRunFolders([dir]);
    expect(model.sources[0]?.run).toMatchObject({ runId: 'suite-run-1', kind: 'suite_baseline', suite: 'custom-dev' });
    expect(model.rows.map((row) => [row.taskId, row.status, row.failureReason])).toEqual([
      ['toy_fail', 'passed', null],
      ['toy_pass', 'failed', 'BASELINE_NOT_FAILING'],
    ]);
    expect(model.problems).toEqual([{ file: path.join(dir, 'attempts.jsonl'), line: 3, message: 'incomplete last line (a write was cut off); skipped' }]);
    const detail = model.rows[0]!.detail;
    expect(detail.message).toBe('the tests fail as expected (exit 1, 1 failing test)');
    expect(detail.timeline.map((entry) => entry.title)).toEqual(['git clone', 'setup (exit 0)', 'baseline run (exit 1)']);
    const run = detail.timeline[2]!;
    expect(run.input?.text).toBe('pytest -q');
    expect(run.output?.isTruncated).toBe(true);
    expect(run.output?.file).toBe(path.join(dir, 'logs/toy_fail/run.log'));
    expect(run.output?.text).toContain('FAILED tests/test_stats.py::test_median');
    expect(detail.notes).toContain('failing tests: tests/test_stats.py::test_median');
  });

  it('reads an agent run: tool calls with arguments, outputs and durations, LLM turns, tests, the patch, the stop', async () => {
    const dir = await writeAgentRun(temporary.path);
    const model = await readRunFolders([dir]);
    expect(model.rows).toHaveLength(1);
    const row = model.rows[0]!;
    expect(row).toMatchObject({ taskId: 'toy_fail', model: 'fake/model-a', variant: 'llm', status: 'passed', steps: 3, inputTokens: 2000, outputTokens: 180, costUsd: 0.0028 });
    expect(model.problems).toEqual([{ file: path.join(dir, 'events.jsonl'), line: 4, message: expect.stringMatching(/^not valid JSON/) }]);
    const timeline = row.detail.timeline;
    expect(timeline.map((entry) => `${entry.kind}:${entry.title}`)).toEqual([
      'note:run started (llm)',
      'tests:tests (initial): failed (exit 1)',
      'llm:LLM fake/model-a, 900 in / 60 out tokens, $0.0012',
      'tool:read_file',
      'llm:LLM fake/model-a, 1100 in / 120 out tokens, $0.0016',
      'tool:apply_patch',
      'patch:patch applied: src/toy_calc/stats.py',
      'tool:run (exit 124): timeout',
      'stop:stopped: SUCCESS',
    ]);
    const read = timeline[3]!;
    expect(read.input?.text).toContain('"path": "src/toy_calc/stats.py"');
    expect(read.output?.text).toBe('def median(values):\n    return values[0]\n');
    expect(read.durationSec).toBe(0.05);
    expect(timeline[2]!.output?.text).toContain('Let me read the file.\n→ read_file({"path":"src/toy_calc/stats.py"})');
    expect(timeline[1]!.output?.text).toContain('FAILED test_median');
    const run = timeline[7]!;
    expect(run.isError).toBe(true);
    expect(run.links.map((link) => link.label)).toEqual(['tool_step_0003_stderr.txt', 'tool_step_0003_stdout.txt']);
    expect(run.output?.text).toBe('1 passed in 0.01s\n');
    expect(timeline[6]!.links[0]?.file).toBe(path.join(dir, 'diffs/step_0002.patch'));
    expect(row.detail.diffs.map((diff) => diff.label)).toEqual(['step_0002.patch']);
    expect(row.detail.diffs[0]?.diff.text).toContain('+    ordered = sorted(values)');
    // Logs the timeline already links (test runs, tool output) are not listed twice.
    expect(row.detail.logs).toEqual([]);
  });

  it('links and previews the run tool\'s sandbox log (tool_step_NNNN_run.log)', async () => {
    const dir = await writeAgentRun(temporary.path, { folder: '01JAGENTRUN0000000000000009', hasSandboxRunLog: true });
    const row = (await readRunFolders([dir])).rows[0]!;
    const run = row.detail.timeline.find((entry) => entry.kind === 'tool' && entry.title.startsWith('run'))!;
    expect(run.links.map((link) => link.label)).toEqual(['tool_step_0003_run.log']);
    expect(run.output?.text).toContain('--- stdout ---\n1 passed in 0.01s');
    expect(row.detail.logs).toEqual([]);
  });

  it('reads a scenario run: conversation, evaluations with the judge reasoning, judgment, trajectory', async () => {
    const dir = await writeScenarioRun(temporary.path);
    const model = await readRunFolders([dir]);
    const row = model.rows[0]!;
    expect(row).toMatchObject({ kind: 'scenario', taskId: 'Support chat', status: 'failed', failureReason: 'EVALUATIONS_FAILED', model: 'fake/model-a', inputTokens: 2550, outputTokens: 450, durationSec: 9 });
    expect(row.detail.conversation.map((turn) => [turn.turn, turn.agent])).toEqual([
      [1, 'Let me check order 42.'],
      [2, 'Your order ships tomorrow.'],
    ]);
    expect(row.detail.evaluations[1]).toMatchObject({ type: 'llm_judge', success: false, score: 0.4 });
    expect(row.detail.evaluations[1]?.reasoning).toBe('Tone was curt; the customer had waited a week.');
    // A model without a price: its cost is unknown, and the detail says so.
    expect(row.detail.notes).toEqual(['conversation ended: user_expresses_satisfaction', 'cost unknown: no price for model fake/model-a']);
    expect(row.detail.judgment?.reason).toMatch(/1 of 2 evaluations passed/);
    expect(row.detail.timeline.map((entry) => entry.kind)).toEqual(['thought', 'action', 'observation']);
  });

  it('reads several folders side by side, and an agent run cut off before its record', async () => {
    const suite = await writeSuiteRun(path.join(temporary.path, 'a'));
    const agentDir = await writeAgentRun(path.join(temporary.path, 'b'), { passed: false });
    await rm(path.join(agentDir, 'attempt.json'));
    const model = await readRunFolders([suite, path.join(temporary.path, 'b')]);
    expect(model.sources.map((source) => [source.label, source.rowCount])).toEqual([
      ['2025-03-01_10-00-00__custom-dev__baseline', 2],
      ['b', 1],
    ]);
    const fromEvents = model.rows.find((row) => row.sourceId === 'source-2')!;
    expect(fromEvents).toMatchObject({ taskId: 'toy_fail', passed: false, failureReason: 'AGENT_GAVE_UP', stopReason: 'MAX_STEPS', steps: 3, model: 'fake/model-a' });
  });

  it('fails clearly for a folder that is missing or holds no artifacts', async () => {
    await expect(readRunFolders([path.join(temporary.path, 'nope')])).rejects.toThrow(`${path.join(temporary.path, 'nope')}: no such folder`);
    await mkdir(path.join(temporary.path, 'empty'));
    const error = await readRunFolders([path.join(temporary.path, 'empty')]).catch((caught: unknown) => caught);
    expect(RunFolderError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no attempts or scenario results found/);
  });
});
