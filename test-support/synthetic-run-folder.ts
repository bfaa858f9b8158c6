import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** One synthetic agent attempt: its outcome, figures and tool calls. */
export interface SyntheticAttempt {
  taskId: string;
  passed: boolean;
  /** Default: null when passed, else TESTS_FAILED. */
  failureReason?: string | null;
  tools?: Array<{ tool: string; params: Record<string, unknown> }>;
  /** null: the record reports no such figure (a scripted agent's tokens, a model without a price). */
  inputTokens?: number | null;
  outputTokens?: number | null;
  costUsd?: number | null;
  durationSec?: number;
  /** The record's model name; null: no model (the scripted agent). Default `synthetic-model`. */
  model?: string | null;
  /** Extra top-level record fields (optional ones of newer records: `backend`, `runtime`...). */
  extraFields?: Record<string, unknown>;
  /** The record's `suspicions` (absent: not written). */
  suspicions?: ReadonlyArray<{ rule: string; scanner: string; file: string; line: number | null; message: string }>;
}

/**
 * Writes an agent run folder as `runAgentAttempt` lays it out (per attempt `<task>/<n>/attempt.json`
 * and `events.jsonl`, plus a top-level `run.json`), records in the layout of AttemptRecord 0.1.0 and
 * events of `events.jsonl`. Start times follow the list order, one minute apart.
 */
export async function writeSyntheticRunFolder(runDir: string, runId: string, attempts: readonly SyntheticAttempt[]): Promise<string> {
  await mkdir(runDir, { recursive: true });
  const startOf = (index: number): Date => new Date(Date.UTC(2026, 0, 1, 12, index, 0));
  await writeFile(
    path.join(runDir, 'run.json'),
    JSON.stringify({
      run_id: runId,
      kind: 'agent',
      created_at: startOf(0).toISOString(),
      finished_at: startOf(attempts.length).toISOString(),
      harness_version: '0.1.0',
      suite: 'synthetic',
      task_ids: [...new Set(attempts.map((attempt) => attempt.taskId))],
      options: {},
      status: 'completed',
      counts: null,
    }),
  );
  const perTask = new Map<string, number>();
  for (const [index, attempt] of attempts.entries()) {
    const repeat = perTask.get(attempt.taskId) ?? 0;
    perTask.set(attempt.taskId, repeat + 1);
    const folder = path.join(runDir, 'agent_runs', attempt.taskId, `attempt-${repeat + 1}`);
    await mkdir(folder, { recursive: true });
    const start = startOf(index);
    const durationSec = attempt.durationSec ?? 10;
    const end = new Date(start.getTime() + durationSec * 1000);
    const tools = attempt.tools ?? [];
    const failureReason = attempt.failureReason === undefined ? (attempt.passed ? null : 'TESTS_FAILED') : attempt.failureReason;
    const record = {
      schema_version: '0.1.0',
      run_id: `${runId}-${index}`,
      task_id: attempt.taskId,
      suite: 'synthetic',
      timestamp_start: start.toISOString(),
      timestamp_end: end.toISOString(),
      duration_sec: durationSec,
      baseline_validation: { attempted: false, failed_as_expected: false },
      result: { passed: attempt.passed, exit_code: attempt.passed ? 0 : 1, failure_reason: failureReason, stop_reason: 'SUCCESS' },
      artifact_paths: { events: 'events.jsonl' },
      variant: 'scripted',
      model: attempt.model === null ? null : { provider: 'openrouter', name: attempt.model ?? 'synthetic-model' },
      limits: { timeout_sec: 60 },
      metrics: {
        steps: tools.length,
        tool_calls: tools.length,
        input_tokens: attempt.inputTokens === undefined ? 1000 : attempt.inputTokens,
        output_tokens: attempt.outputTokens === undefined ? 100 : attempt.outputTokens,
        cost_usd: attempt.costUsd === undefined ? 0.01 : attempt.costUsd,
      },
      ...attempt.extraFields,
      ...(attempt.suspicions === undefined ? {} : { suspicions: attempt.suspicions }),
    };
    await writeFile(path.join(folder, 'attempt.json'), JSON.stringify(record));
    const event = (type: string, step: number | null, payload: Record<string, unknown>): string =>
      JSON.stringify({ event_type: type, timestamp: start.toISOString(), run_id: record.run_id, step, payload });
    const lines = [
      event('run_started', null, { task_id: attempt.taskId, variant: 'scripted' }),
      ...tools.flatMap((call, step) => [
        event('tool_call_started', step + 1, { request_id: `r${step + 1}`, tool: call.tool, params: call.params }),
        event('tool_call_finished', step + 1, { request_id: `r${step + 1}`, tool: call.tool, status: 'success', duration_sec: 0.1 }),
      ]),
      event('run_finished', null, { passed: attempt.passed, failure_reason: failureReason, steps: tools.length, duration_sec: durationSec }),
    ];
    await writeFile(path.join(folder, 'events.jsonl'), `${lines.join('\n')}\n`);
  }
  return runDir;
}
