import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AttemptRecord, FailureReason } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { statusOf } from '../read/row-status.js';
import { renderJunitReport } from './render-junit.js';

function record(taskId: string, reason: FailureReason, failure: { failureClass?: 'infra' | 'agent'; stage?: string; errored?: boolean } = {}): AttemptRecord {
  return {
    schema_version: '0.1.0',
    run_id: `${taskId}-1`,
    task_id: taskId,
    suite: 'custom-dev',
    timestamp_start: '2026-01-01T00:00:00.000Z',
    timestamp_end: '2026-01-01T00:00:01.000Z',
    duration_sec: 1,
    baseline_validation: { attempted: false, failed_as_expected: false },
    result: { passed: false, exit_code: 1, failure_reason: reason },
    artifact_paths: {},
    variant: 'scripted',
    model: { provider: 'fake', name: 'fake/model' },
    limits: { timeout_sec: 60 },
    ...(failure.failureClass === undefined ? {} : { failure_class: failure.failureClass, failure_stage: failure.stage ?? 'agent_run' }),
    ...(failure.errored === undefined ? {} : { errored: failure.errored }),
  };
}

let root: string;
let model: ReportModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-report-by-class-'));
  const runDir = path.join(root, 'run');
  await mkdir(runDir, { recursive: true });
  const records = [
    // The agent killed its own sandbox: a failure of the agent's, not an error.
    record('agent_kill', 'SANDBOX_ERROR', { failureClass: 'agent', stage: 'agent_run', errored: false }),
    // The agent's own bad model request.
    record('agent_llm', 'LLM_ERROR', { failureClass: 'agent', errored: false }),
    // The engine failed before the agent ran, on the last try: errored.
    record('engine_down', 'SANDBOX_ERROR', { failureClass: 'infra', stage: 'git_clone', errored: true }),
    // An older record without a class: its reason decides, as before.
    record('old_record', 'SANDBOX_ERROR'),
  ];
  await writeFile(path.join(runDir, 'attempts.jsonl'), records.map((item) => JSON.stringify(item)).join('\n') + '\n');
  model = await readRunFolders([runDir]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('errored rows are class infra', () => {
  it('marks a row errored by its failure class when the record has one, by its reason otherwise', () => {
    const status = Object.fromEntries(model.rows.map((row) => [row.taskId, row.status]));
    expect(status).toEqual({ agent_kill: 'failed', agent_llm: 'failed', engine_down: 'errored', old_record: 'errored' });
    expect(statusOf(false, 'INTERRUPTED', 'agent')).toBe('failed');
    expect(statusOf(false, 'TESTS_FAILED', 'infra')).toBe('errored');
    expect(statusOf(false, 'INTERRUPTED')).toBe('errored');
  });

  it('writes agent-caused failures as JUnit <failure>, and only infrastructure as <error>', () => {
    const junit = renderJunitReport(model);
    const testcase = (name: string): string => {
      const start = junit.indexOf(`name="${name}`);
      expect(start).toBeGreaterThan(-1);
      return junit.slice(start, junit.indexOf('</testcase>', start));
    };
    expect(testcase('agent_kill')).toContain('<failure');
    expect(testcase('agent_kill')).not.toContain('<error');
    expect(testcase('agent_llm')).toContain('<failure');
    expect(testcase('engine_down')).toContain('<error');
  });
});
