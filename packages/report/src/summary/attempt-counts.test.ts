import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBenchTable } from '../bench/format-bench-table.js';
import { summarizeModelBenchmark } from '../bench/summarize-model-benchmark.js';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { renderHtmlReport } from '../render/render-html.js';
import { renderJsonReport } from '../render/render-json.js';
import { renderMarkdownReport } from '../render/render-markdown.js';
import { countAttempts, formatAttemptCounts } from './attempt-counts.js';

type Kind = 'pass' | 'no-script' | 'unverified-pass' | 'unvalidated-fail';

function record(taskId: string, kind: Kind): AttemptRecord {
  const start = '2026-01-01T00:00:00.000Z';
  const passed = kind === 'pass' || kind === 'unverified-pass';
  return {
    schema_version: '0.1.0',
    run_id: taskId,
    task_id: taskId,
    suite: 'custom-dev',
    timestamp_start: start,
    timestamp_end: start,
    duration_sec: kind === 'no-script' ? 0 : 1,
    baseline_validation: { attempted: false, failed_as_expected: false },
    result: { passed, exit_code: passed ? 0 : kind === 'no-script' ? -1 : 1, failure_reason: kind === 'unvalidated-fail' ? 'TESTS_FAILED' : null },
    artifact_paths: {},
    variant: 'scripted',
    model: null,
    limits: { timeout_sec: 60 },
    attempt_id: `scripted/${taskId}/r1`,
    repeat: 1,
    try: 1,
    errored: kind === 'no-script',
    ...(kind === 'no-script' ? { failure_class: 'agent' as const, not_started: { reason: 'no script', message: `the scripted agent needs a script: ${taskId}/task.yaml has neither agent.script nor agent.script_file` } } : {}),
    ...(kind === 'unvalidated-fail' ? { failure_class: 'agent' as const } : {}),
    task_validity:
      kind === 'unverified-pass'
        ? { status: 'unverified', reason: 'BASELINE_NOT_FAILING', source: 'validity', counted: false }
        : kind === 'unvalidated-fail'
          ? { status: 'unvalidated', counted: true }
          : { status: 'valid', source: 'validity', counted: true },
  };
}

let root: string;
let runDir: string;
let model: ReportModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-attempt-counts-'));
  runDir = path.join(root, 'run');
  await mkdir(path.join(runDir, 'scripted'), { recursive: true });
  const records = [record('a', 'pass'), record('b', 'pass'), record('c', 'no-script'), record('d', 'no-script'), record('e', 'no-script'), record('f', 'unverified-pass'), record('g', 'unvalidated-fail')];
  await writeFile(path.join(runDir, 'attempts.jsonl'), records.map((line) => `${JSON.stringify(line)}\n`).join(''));
  model = await readRunFolders([runDir]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('attempt counts', () => {
  it('say what the pass rate is taken over: errored attempts with their reason, unverified tasks left out', () => {
    const counts = countAttempts(model.rows);
    expect(counts).toMatchObject({ attempts: 7, ran: 4, counted: 3, countedPassed: 2, erroredByReason: { 'no script': 3 }, unverifiedNotCounted: 1, unverifiedTasks: ['f (BASELINE_NOT_FAILING)'], unvalidated: 1 });
    expect(formatAttemptCounts(counts)).toBe('4/7 ran; 2/3 passed; 3 errored: no script; 1 unverified task, not counted; 1 unvalidated');
    expect(formatAttemptCounts(countAttempts(model.rows.filter((row) => ['a', 'b'].includes(row.taskId))))).toBe('2/2 passed');
  });

  it('are in every report: markdown headline and marks, json counts and validity, html card and row data, the ab run table', async () => {
    const markdown = renderMarkdownReport(model);
    expect(markdown).toContain('**4/7 ran; 2/3 passed; 3 errored: no script; 1 unverified task, not counted; 1 unvalidated** (66.7%');
    expect(markdown).toMatch(/\| f \| scripted \| passed \| unverified task \(BASELINE_NOT_FAILING\): its baseline was not shown to fail; not counted in pass rates \|/);
    expect(markdown).toMatch(/\| c \| scripted \| not started: no script \| not started: the scripted agent needs a script/);
    expect(markdown).toMatch(/\| g \(unvalidated task\) \| scripted \| TESTS_FAILED \|/);

    const json = JSON.parse(renderJsonReport(model)) as { summary: { overall: Record<string, unknown> }; rows: Array<Record<string, unknown>> };
    expect(json.summary.overall['counts']).toMatchObject({ attempts: 7, ran: 4, counted: 3, passed: 2, errored_by_reason: { 'no script': 3 }, unverified_not_counted: 1 });
    expect(json.summary.overall['pass_rate']).toBeCloseTo(2 / 3);
    expect(json.rows.find((row) => row['task_id'] === 'f')?.['task_validity']).toMatchObject({ status: 'unverified', counted: false, mark: expect.stringMatching(/^unverified task/) });
    expect(json.rows.find((row) => row['task_id'] === 'c')?.['not_started']).toBe('no script');

    const html = renderHtmlReport(model, { baseDir: root });
    expect(html).toContain('data-testid="attempt-counts">4/7 ran; 2/3 passed; 3 errored: no script; 1 unverified task, not counted; 1 unvalidated<');
    expect(html).toContain("' · unverified task'");

    const bench = await summarizeModelBenchmark({ outDir: runDir, runs: 1, taskCount: 7, entries: [{ model: 'scripted', folder: runDir, isDropped: false, errors: [] }] });
    const table = formatBenchTable(bench);
    expect(table).toMatch(/^scripted\s+7\s+3\s+67%/m);
    expect(table).toContain('scripted: 4/7 ran; 2/3 passed; 3 errored: no script; 1 unverified task, not counted; 1 unvalidated');
    expect(table).toContain('  unverified task f (BASELINE_NOT_FAILING): its baseline was not shown to fail; not counted (--include-unvalidated counts it)');
  });
});
