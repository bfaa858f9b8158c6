import { describe, expect, it } from 'vitest';
import { attemptRecordFor } from '../../test/helpers/attempt-record.js';
import { formatSuiteSummary } from './format-suite-summary.js';
import { createSuiteProgressReporter } from './suite-progress-reporter.js';
import type { SuiteEvent, ValidateSuiteResult } from './suite-types.js';

function collector(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = { write: (chunk: string) => ((text += chunk), true), columns: 200 } as unknown as NodeJS.WritableStream;
  return { stream, text: () => text };
}

const started: SuiteEvent = {
  type: 'suite-started',
  runDir: '/runs/r',
  runId: 'r',
  suite: 'demo',
  total: 2,
  toRun: ['a', 'b'],
  order: 'as-listed',
  timedByPastRuns: 0,
  alreadyFinished: 0,
  skipped: [{ taskId: 'c', labels: ['flaky'] }],
  concurrency: 2,
  isResumed: false,
  warnings: [],
};

describe('createSuiteProgressReporter', () => {
  it('prints one line per finished task when not on a terminal', () => {
    const output = collector();
    const reporter = createSuiteProgressReporter({ stream: output.stream, isInteractive: false });
    reporter.onEvent(started);
    reporter.onEvent({ type: 'task-started', taskId: 'a' });
    reporter.onEvent({ type: 'task-finished', taskId: 'a', result: { taskId: 'a', status: 'invalid', record: { ...attemptRecordFor('a', 'TIMEOUT'), duration_sec: 6.1 } } });
    reporter.onEvent({ type: 'task-finished', taskId: 'b', result: { taskId: 'b', status: 'valid', record: attemptRecordFor('b', null) } });
    reporter.stop();
    expect(output.text()).toBe('2 tasks of demo to validate, 2 at a time, 1 skipped (c)\n[1/2] a INVALID TIMEOUT 6.1s\n[2/2] b VALID 1.0s\n');
  });

  it('says the start order when the tasks start longest first, and what it was taken from', () => {
    const output = collector();
    const reporter = createSuiteProgressReporter({ stream: output.stream, isInteractive: false });
    reporter.onEvent({ ...started, toRun: ['b', 'a'], order: 'longest-first', timedByPastRuns: 1 });
    reporter.stop();
    expect(output.text()).toBe("2 tasks of demo to validate, 2 at a time, 1 skipped (c)\nstart order: longest first (1 of 2 by earlier runs' durations, the rest by timeout): b, a\n");
  });

  it('keeps a status line with done, running, failed and elapsed on a terminal', () => {
    const output = collector();
    const reporter = createSuiteProgressReporter({ stream: output.stream, isInteractive: true });
    reporter.onEvent(started);
    reporter.onEvent({ type: 'task-started', taskId: 'a' });
    reporter.onEvent({ type: 'task-started', taskId: 'b' });
    reporter.onEvent({ type: 'task-finished', taskId: 'a', result: { taskId: 'a', status: 'errored', record: attemptRecordFor('a', 'SANDBOX_ERROR') } });
    reporter.stop();
    const text = output.text();
    expect(text).toMatch(/\r\u001b\[2K\[0\/2\] running 2 \(a, b\) · failed 0 · 0\.\ds/);
    expect(text).toMatch(/\[1\/2\] a ERROR SANDBOX_ERROR 1\.0s\n\r\u001b\[2K\[1\/2\] running 1 \(b\) · failed 1 · /);
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('formatSuiteSummary', () => {
  it('lists every task with outcome, reason and duration, the totals, and how to resume', () => {
    const result: ValidateSuiteResult = {
      runDir: '/runs/r',
      runId: 'r',
      runRecord: { run_id: 'r', kind: 'suite_baseline', created_at: '2024-01-01T00:00:00.000Z', harness_version: '0.1.0', task_ids: ['a', 'b'], options: {}, status: 'interrupted', counts: { total: 3, passed: 1, failed: 0, errored: 0, skipped: 1 } },
      tasks: [
        { taskId: 'a', status: 'valid', record: attemptRecordFor('a', null) },
        { taskId: 'b', status: 'not_run' },
        { taskId: 'c', status: 'skipped', skippedBy: ['flaky'] },
      ],
      isInterrupted: true,
      isResumed: false,
      durationMs: 65_000,
    };
    expect(formatSuiteSummary(result, { suite: 'demo' })).toBe(
      [
        'task  outcome  failure reason  duration  detail',
        '----  -------  --------------  --------  ------',
        'a     VALID    -               1.0s',
        'b     NOT RUN  -               -',
        'c     SKIPPED  label: flaky    -',
        '',
        '1 valid, 0 invalid, 0 errored, 1 skipped, 1 not finished in 1m05s',
        'run: /runs/r',
        'interrupted: resume with `ab validate-suite demo --resume /runs/r`',
        '',
      ].join('\n'),
    );
  });

  it('prints a detail that quotes sandbox-written text as one escaped, bounded line', () => {
    const outcome = { message: `setup changed the work tree (1 path: A evil\u001b[2J${'x'.repeat(5000)}\nname)` } as NonNullable<ValidateSuiteResult['tasks'][number]['outcome']>;
    const result = {
      runDir: '/runs/r',
      runId: 'r',
      runRecord: { run_id: 'r', kind: 'suite_baseline', created_at: '2024-01-01T00:00:00.000Z', harness_version: '0.1.0', task_ids: ['a'], options: {}, status: 'completed', counts: { total: 1, passed: 0, failed: 1, errored: 0, skipped: 0 } },
      tasks: [{ taskId: 'a', status: 'invalid', record: attemptRecordFor('a', 'SETUP_DIRTY_WORKTREE'), outcome }],
      isInterrupted: false,
      isResumed: false,
      durationMs: 1000,
    } as ValidateSuiteResult;
    const row = formatSuiteSummary(result, { suite: 'demo' }).split('\n')[2] ?? '';
    expect(row).toContain('A evil\\u001b[2J');
    expect(row).not.toContain('\u001b');
    expect(row.length).toBeLessThan(500);
  });
});
