import { appendFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptRecord } from '../../test/helpers/write-artifacts.js';
import { formatBenchTable } from './format-bench-table.js';
import { summarizeModelBenchmark } from './summarize-model-benchmark.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-bench-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Records of one model's attempts, as the harness writes them into the model's folder. */
async function writeAttempts(model: string, folder: string, attempts: Array<{ task: string; repeat: number; passed: boolean; isFlagged?: boolean }>): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const { task, repeat, passed, isFlagged } of attempts) {
    const record = attemptRecord({
      run_id: `${model}-${task}-${repeat}`,
      task_id: task,
      timestamp_start: `2025-03-01T10:00:0${repeat}.000Z`,
      variant: 'llm',
      model: { provider: 'openrouter', name: model },
      result: { passed, exit_code: passed ? 0 : 1, failure_reason: passed ? null : 'AGENT_GAVE_UP', stop_reason: passed ? 'SUCCESS' : 'MAX_STEPS' },
      metrics: { steps: 4, input_tokens: 1000, output_tokens: 100, cost_usd: 0.01 },
      suspicions: isFlagged === true ? [{ rule: 'process-exit', scanner: 'process-exit', file: 'src/a.py', line: 2, message: 'os._exit' }] : [],
    });
    await appendFile(path.join(folder, 'attempts.jsonl'), `${JSON.stringify(record)}\n`);
  }
}

describe('summarizeModelBenchmark', () => {
  it('reads the figures back from the model folders, writes bench-summary.json, and the table renders them', async () => {
    const folder = (name: string): string => path.join(root, name);
    const everyAttempt = (passed: (task: string, repeat: number) => boolean): Array<{ task: string; repeat: number; passed: boolean }> =>
      ['task_a', 'task_b'].flatMap((task) => [1, 2].map((repeat) => ({ task, repeat, passed: passed(task, repeat) })));
    await writeAttempts('alpha/one', folder('alpha__one'), everyAttempt(() => true).map((attempt) => ({ ...attempt, isFlagged: attempt.task === 'task_a' })));
    await writeAttempts('alpha/two', folder('alpha__two'), everyAttempt((_task, repeat) => repeat === 1));
    await writeAttempts('beta/one', folder('beta__one'), everyAttempt(() => false).filter(({ task, repeat }) => !(task === 'task_b' && repeat === 2)));
    const result = await summarizeModelBenchmark({
      outDir: root,
      runs: 2,
      taskCount: 2,
      entries: [
        { model: 'alpha/one', folder: folder('alpha__one'), isDropped: false, errors: [] },
        { model: 'alpha/two', folder: folder('alpha__two'), isDropped: false, errors: [] },
        { model: 'beta/one', folder: folder('beta__one'), isDropped: false, errors: ['task_b #2: provider key missing'] },
        { model: 'gamma/down', folder: folder('gamma__down'), probe: { isAnswering: false, message: '404 model not found' }, isDropped: true, errors: [] },
        { model: 'delta/none', folder: folder('delta__none'), isDropped: false, errors: ['task_a #1: no key'] },
      ],
    });
    const byModel = Object.fromEntries(result.entries.map((entry) => [entry.model, entry]));
    expect(byModel['gamma/down']).toMatchObject({ isDropped: true, probe: { isAnswering: false, message: '404 model not found' }, summary: null });
    expect(byModel['alpha/one']?.summary).toMatchObject({ attempts: 4, passed: 4 });
    expect(byModel['alpha/two']?.summary?.passAtK.map((estimate) => estimate.value)).toEqual([0.5, 1]);
    expect(byModel['beta/one']?.summary).toMatchObject({ attempts: 3, passed: 0, failuresByReason: { AGENT_GAVE_UP: 3 } });
    expect(byModel['delta/none']?.summary).toBeNull();

    expect(result.summaryFile).toBe(path.join(root, 'bench-summary.json'));
    const json = JSON.parse(await readFile(result.summaryFile, 'utf8')) as { models: Array<Record<string, unknown>> };
    expect(json.models.map((model) => [model.model, model.attempts, model.pass_rate, model.dropped])).toEqual([
      ['alpha/one', 4, 1, false],
      ['alpha/two', 4, 0.5, false],
      ['beta/one', 3, 0, false],
      ['gamma/down', 0, null, true],
      ['delta/none', 0, null, false],
    ]);
    const table = formatBenchTable(result);
    expect(table.split('\n')[0]).toMatch(/^model\s+attempts\s+errored\s+pass rate \(95% CI\)\s+pass@1\s+pass@2\s+steps\s+tokens\s+cost\s+time\s+failures$/);
    expect(table).toMatch(/alpha\/two\s+4\s+0\s+50% \(15%–85%\)\s+50%\s+100%\s+4\s+1100\s+\$0\.01/);
    expect(table).toMatch(/delta\/none\s+0\s+0\s+–.*no attempt recorded/);
    expect(table).toContain('alpha/two: 2/4 passed');
    expect(table).toContain('dropped gamma/down: the probe got no answer (404 model not found)');
    expect(table).toContain('error beta/one: task_b #2: provider key missing');
    // A pass the scanners flagged is named in the summary, not hidden in the pass rate.
    expect(json.models[0]).toMatchObject({ flagged_attempts: 2, flagged_passed: 2 });
    expect(table).toContain('suspicions alpha/one: 2 attempts flagged by the scanners, 2 of them passed');
    expect(table).not.toContain('suspicions alpha/two');
  });

  it("ab run's table: an unknown cost is – with the model named, a known zero $0.00, and what the attempts ran in (issue 27)", async () => {
    const write = async (model: string, costUsd: number | null): Promise<string> => {
      const folder = path.join(root, model.replace('/', '__'));
      await mkdir(folder, { recursive: true });
      const record = attemptRecord({
        run_id: `${model}-1`,
        task_id: 'toy_fail_pytest',
        variant: 'llm',
        model: { provider: 'openrouter', name: model },
        metrics: { steps: 3, input_tokens: 1000, output_tokens: 55, cost_usd: costUsd },
        backend: 'docker',
        runtime: 'runsc',
      });
      await appendFile(path.join(folder, 'attempts.jsonl'), `${JSON.stringify(record)}\n`);
      return folder;
    };
    const result = await summarizeModelBenchmark({
      outDir: root,
      runs: 1,
      taskCount: 1,
      entries: [
        { model: 'unpriced/model', folder: await write('unpriced/model', null), isDropped: false, errors: [] },
        { model: 'free/model', folder: await write('free/model', 0), isDropped: false, errors: [] },
      ],
    });
    const table = formatBenchTable(result);
    expect(table).toMatch(/unpriced\/model\s+1\s+.*\s+3\s+1055\s+–\s/);
    expect(table).toMatch(/free\/model\s+1\s+.*\s+3\s+1055\s+\$0\.00\s/);
    expect(table).toContain('cost unknown: no price for model unpriced/model\n');
    expect(table).not.toContain('no price for model free/model');
    expect(table).toContain('ran in: backend docker, runtime runsc\n');
    const json = JSON.parse(await readFile(result.summaryFile, 'utf8')) as { models: Array<Record<string, unknown>> };
    expect(json.models[0]).toMatchObject({ mean_cost_usd: null, cost_unknown_models: ['unpriced/model'], sandbox: 'backend docker, runtime runsc' });
  });
});
