import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AttemptRecordSchema, type AttemptRecord } from './attempt-record.js';

function record(): AttemptRecord {
  return {
    schema_version: '0.1.0',
    run_id: '01JFDABCDEF123456789',
    task_id: 'toy_fail_pytest',
    suite: 'custom-dev',
    timestamp_start: '2025-12-17T10:00:00-05:00',
    timestamp_end: '2025-12-17T10:02:30.123456-05:00',
    duration_sec: 150.5,
    baseline_validation: { attempted: true, failed_as_expected: true, exit_code: 1 },
    result: { passed: false, exit_code: 1, failure_reason: 'TESTS_FAILED', stop_reason: 'MAX_STEPS' },
    artifact_paths: { logs_dir: 'logs/toy_fail_pytest' },
    variant: 'scripted',
    model: null,
    limits: { timeout_sec: 300, tool_timeout_sec: null, max_steps: 10 },
    metrics: { steps: 4, tool_calls: 4, input_tokens: 1200, output_tokens: 300, cost_usd: 0.01, sandbox_time_ms: 2500 },
  };
}

function issuePaths(input: unknown): string[] {
  const result = v.safeParse(AttemptRecordSchema, input);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '');
}

describe('AttemptRecordSchema', () => {
  it('round-trips a record through JSON', () => {
    const line = JSON.stringify(record());
    expect(v.parse(AttemptRecordSchema, JSON.parse(line))).toEqual(record());
  });

  it('accepts a baseline record with only the required fields and a passed result', () => {
    const { variant: _variant, model: _model, metrics: _metrics, ...minimal } = record();
    minimal.result = { passed: true, exit_code: 0, failure_reason: null };
    minimal.baseline_validation = { attempted: false, failed_as_expected: false };
    expect(issuePaths(minimal)).toEqual([]);
  });

  it('reads the logs cut at the output cap, and records from before the field', () => {
    const cut = { ...record(), truncated_logs: ['logs/run.log', 'logs/tool_step_0001_run.log'] };
    expect(v.parse(AttemptRecordSchema, JSON.parse(JSON.stringify(cut))).truncated_logs).toEqual(['logs/run.log', 'logs/tool_step_0001_run.log']);
    expect(v.parse(AttemptRecordSchema, record()).truncated_logs).toBeUndefined();
    expect(v.parse(AttemptRecordSchema, { ...record(), engine: 'second' }).engine).toBe('second');
    expect(v.parse(AttemptRecordSchema, record()).engine).toBeUndefined();
    expect(issuePaths({ ...record(), truncated_logs: 'logs/run.log' })).toEqual(['truncated_logs']);
  });

  it('reads the run fields (class, stage, attempt, try, errored, engine) and records without them', () => {
    const tried = { ...record(), failure_class: 'infra', failure_stage: 'git_clone', attempt_id: 'm/toy/r1', repeat: 1, try: 2, errored: true, engine: 'local' };
    expect(v.parse(AttemptRecordSchema, JSON.parse(JSON.stringify(tried)))).toEqual(tried);
    expect(v.parse(AttemptRecordSchema, record()).failure_class).toBeUndefined();
    expect(issuePaths({ ...record(), failure_class: 'engine' })).toEqual(['failure_class']);
    const lost = { ...tried, try: 1, engine: 'second', engine_unreachable: "engine 'second' stopped answering (ECONNREFUSED)" };
    expect(v.parse(AttemptRecordSchema, lost).engine_unreachable).toBe(lost.engine_unreachable);
    expect(v.parse(AttemptRecordSchema, tried).engine_unreachable).toBeUndefined();
    expect(issuePaths({ ...record(), engine_unreachable: true })).toEqual(['engine_unreachable']);
    expect(issuePaths({ ...record(), try: 0 })).toEqual(['try']);
  });

  it('accepts a model snapshot with provider extras', () => {
    const withModel = { ...record(), model: { provider: 'openrouter', name: 'anthropic/claude-3.5-sonnet', temperature: 0, base_url: 'http://127.0.0.1:1' } };
    expect(v.parse(AttemptRecordSchema, withModel).model).toEqual(withModel.model);
  });

  it('rejects another schema version, bad enums and bad timestamps', () => {
    const bad = record() as Record<string, any>;
    bad.schema_version = '0.2.0';
    bad.result.failure_reason = 'SOMETHING';
    bad.result.stop_reason = 'BORED';
    bad.baseline_validation.failure_reason = 'NOPE';
    bad.timestamp_start = 'yesterday';
    bad.duration_sec = -1;
    bad.limits.timeout_sec = 0;
    bad.metrics.steps = -1;
    expect(issuePaths(bad).sort()).toEqual(
      [
        'schema_version',
        'result.failure_reason',
        'result.stop_reason',
        'baseline_validation.failure_reason',
        'timestamp_start',
        'duration_sec',
        'limits.timeout_sec',
        'metrics.steps',
      ].sort(),
    );
  });

  it('requires failure_reason to be present (null when passed)', () => {
    const bad = record() as Record<string, any>;
    delete bad.result.failure_reason;
    expect(issuePaths(bad)).toEqual(['result.failure_reason']);
  });
});
