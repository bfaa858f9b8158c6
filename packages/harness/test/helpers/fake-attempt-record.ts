import type { AttemptRecord, FailureReason } from '@agentbench/schemas';
import type { AttemptTryInput } from '../../src/run/run-agent-run.js';

/** A record as an attempt try would return it: passed, or failed for `reason` in `stage` (with the cause the harness recorded, if given). */
export function fakeAttemptRecord(input: AttemptTryInput, failure?: { reason: FailureReason; stage: string; failureClass: 'infra' | 'task' | 'agent'; cause?: string }): AttemptRecord {
  const now = new Date().toISOString();
  return {
    schema_version: '0.1.0',
    run_id: `${input.attempt.attemptId}#${input.try}`,
    task_id: input.attempt.task.task.id,
    suite: input.attempt.task.task.suite,
    timestamp_start: now,
    timestamp_end: now,
    duration_sec: 0,
    baseline_validation: { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null },
    result: { passed: failure === undefined, exit_code: failure === undefined ? 0 : 1, failure_reason: failure?.reason ?? null, stop_reason: null },
    artifact_paths: {},
    variant: 'fake',
    model: input.attempt.model === null ? null : { provider: 'fake', name: input.attempt.model },
    limits: { timeout_sec: 60 },
    metrics: null,
    ...(failure === undefined ? {} : { failure_class: failure.failureClass, failure_stage: failure.stage }),
    ...(failure?.cause === undefined ? {} : { failure_cause: failure.cause }),
  };
}
