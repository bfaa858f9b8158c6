import { AgentLoadError, AgentLoopError } from '@agentbench/agent-loop';
import { agentStartProblem } from '@agentbench/agent-loop';
import { ATTEMPT_RECORD_SCHEMA_VERSION, ConfigurationError, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { UnstartablePlanError, type UnstartableTask } from '../errors/unstartable-plan-error.js';
import { providerOf } from '../plan/model-list.js';

/**
 * Refuses a plan whose agent cannot start on some of its tasks (the scripted agent on a task
 * without a script, a custom agent whose file is missing), before anything starts: such attempts
 * could never run, and a run of them would only record errors.
 */
export async function assertPlanCanStart(variant: string, tasks: readonly LoadedTask[]): Promise<void> {
  const unstartable: UnstartableTask[] = [];
  for (const loaded of tasks) {
    const problem = await agentStartProblem(variant, { task: loaded });
    if (problem !== undefined) unstartable.push({ taskId: loaded.task.id, ...problem });
  }
  if (unstartable.length > 0) throw new UnstartablePlanError(variant, tasks.length, unstartable);
}

/** A few words for why an attempt could not start, from what its try threw: what reports count errored attempts by. */
export function notStartedReason(error: unknown): string {
  if (ConfigurationError.isInstance(error) && error.field === 'script') return 'no script';
  if (AgentLoadError.isInstance(error)) return 'agent failed to load';
  if (AgentLoopError.isInstance(error) || ConfigurationError.isInstance(error)) return 'agent could not start';
  return 'could not start';
}

/**
 * The record of an attempt whose try threw before anything ran (the agent failed to load, a
 * configuration error found at attempt time): errored, so it is counted as such and left out of
 * pass rates, and final (not the infrastructure's: a resume does not run it again).
 */
export function notStartedRecord(attempt: { attemptId: string; task: LoadedTask; model: string | null; repeat: number }, tryNumber: number, options: { runId: string; variant: string; error: unknown; at: Date }): AttemptRecord {
  const { task } = attempt.task;
  const message = options.error instanceof Error ? options.error.message : String(options.error);
  const at = options.at.toISOString();
  return {
    schema_version: ATTEMPT_RECORD_SCHEMA_VERSION,
    run_id: options.runId,
    task_id: task.id,
    suite: task.suite,
    timestamp_start: at,
    timestamp_end: at,
    duration_sec: 0,
    baseline_validation: { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null },
    result: { passed: false, exit_code: -1, failure_reason: null, stop_reason: null },
    artifact_paths: {},
    variant: options.variant,
    model: attempt.model === null ? null : { provider: providerOf(attempt.model), name: attempt.model },
    limits: { timeout_sec: task.environment.timeout_sec, tool_timeout_sec: null, max_steps: null, max_time_sec: null },
    metrics: null,
    task_spec_version: task.task_spec_version,
    harness_min_version: task.harness_min_version ?? null,
    labels: [...task.labels],
    failure_class: 'agent',
    failure_stage: 'agent',
    failure_cause: `the attempt could not start: ${message}`,
    attempt_id: attempt.attemptId,
    repeat: attempt.repeat,
    try: tryNumber,
    errored: true,
    not_started: { reason: notStartedReason(options.error), message },
  };
}
