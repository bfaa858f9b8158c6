import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBenchTable } from '../bench/format-bench-table.js';
import { summarizeModelBenchmark } from '../bench/summarize-model-benchmark.js';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { renderHtmlReport } from './render-html.js';
import { renderJsonReport } from './render-json.js';
import { renderJunitReport } from './render-junit.js';
import { renderMarkdownReport } from './render-markdown.js';

function record(taskId: string, repeat: number, attemptTry: number, outcome: 'pass' | 'fail' | 'infra', errored = false): AttemptRecord {
  const start = `2026-01-01T00:0${repeat}:0${attemptTry}.000Z`;
  return {
    schema_version: '0.1.0',
    run_id: `${taskId}-${repeat}-${attemptTry}`,
    task_id: taskId,
    suite: 'custom-dev',
    timestamp_start: start,
    timestamp_end: start,
    duration_sec: 1,
    baseline_validation: { attempted: false, failed_as_expected: false },
    result: { passed: outcome === 'pass', exit_code: outcome === 'pass' ? 0 : 1, failure_reason: outcome === 'pass' ? null : outcome === 'fail' ? 'TESTS_FAILED' : 'SANDBOX_ERROR' },
    artifact_paths: {},
    variant: 'scripted',
    model: { provider: 'fake', name: 'fake/model' },
    limits: { timeout_sec: 60 },
    attempt_id: `fake__model/${taskId}/r${repeat}`,
    repeat,
    try: attemptTry,
    errored,
    ...(outcome === 'pass' ? {} : { failure_class: outcome === 'fail' ? 'agent' : 'infra', failure_stage: outcome === 'fail' ? 'final_test' : 'git_clone' }),
  };
}

let root: string;
let runDir: string;
let model: ReportModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-report-errored-'));
  runDir = path.join(root, 'run');
  await mkdir(path.join(runDir, 'fake__model'), { recursive: true });
  const records = [
    record('task_a', 1, 1, 'pass'),
    record('task_a', 2, 1, 'fail'),
    // An infra try that was retried (superseded), then a pass.
    record('task_b', 1, 1, 'infra'),
    record('task_b', 1, 2, 'pass'),
    // Every try failed on infrastructure: errored, not counted.
    record('task_b', 2, 1, 'infra'),
    record('task_b', 2, 2, 'infra'),
    record('task_b', 2, 3, 'infra', true),
  ];
  await writeFile(path.join(runDir, 'fake__model', 'attempts.jsonl'), records.map((item) => JSON.stringify(item)).join('\n') + '\n');
  model = await readRunFolders([runDir]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('errored attempts in reports', () => {
  it('keeps only the last try of each attempt as a row', () => {
    expect(model.rows).toHaveLength(4);
    expect(model.rows.filter((row) => row.isErroredNotCounted === true)).toHaveLength(1);
  });

  it('leaves errored attempts out of the pass rate and pass@k in the JSON report, with the count and the conservative rate', () => {
    const json = JSON.parse(renderJsonReport(model)) as { summary: { overall: Record<string, unknown> } };
    const overall = json.summary.overall;
    expect(overall).toMatchObject({ attempts: 4, errored_not_counted: 1 });
    expect(overall['pass_rate']).toBeCloseTo(2 / 3);
    expect(overall['conservative_pass_rate']).toBeCloseTo(2 / 4);
    // task_a: 1 of 2; task_b: its one counted attempt passed.
    expect((overall['pass_at_k'] as Array<{ k: number; value: number }>)[0]?.value).toBeCloseTo(0.75);
  });

  it('says "1 errored, not counted" beside the conservative rate in the markdown, HTML, JUnit and bench table', async () => {
    expect(renderMarkdownReport(model)).toContain('1 errored, not counted; conservative 50.0%');
    expect(renderHtmlReport(model)).toContain('1 errored, not counted; conservative 50.0%');
    const junit = renderJunitReport(model);
    expect(junit).toContain('<property name="errored_not_counted" value="1"/>');
    expect(junit).toContain('<property name="conservative_pass_rate" value="0.5000"/>');
    const bench = await summarizeModelBenchmark({ outDir: runDir, runs: 2, taskCount: 2, entries: [{ model: 'fake/model', folder: path.join(runDir, 'fake__model'), isDropped: false, errors: [] }] });
    expect(formatBenchTable(bench)).toContain('67% (21%–94%) [1 errored, not counted; conservative 50%]');
  });
});
