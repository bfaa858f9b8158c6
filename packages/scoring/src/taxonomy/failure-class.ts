import { FAILURE_REASONS, type FailureReason } from '@agentbench/schemas';
import { describeValue } from '../describe-value.js';
import { ScoringError } from '../errors/scoring-error.js';
import { isFailureReason } from './failure-precedence.js';

/**
 * Who caused a failure. `infra`: the engine, the host or the LLM endpoint (retried, and an attempt
 * whose every try was `infra` is left out of pass rates as errored). `task`: the task itself
 * (its setup, its baseline, its repository). `agent`: the agent (counted as a failure).
 */
export const FAILURE_CLASSES = ['infra', 'task', 'agent'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** Pipeline stages in which the agent's own code or commands have run (or still run). */
export const AGENT_STAGES: readonly string[] = ['agent_run', 'final_test'];

/** What the harness knows about when the failure happened. */
export interface FailureClassContext {
  /**
   * The pipeline stage the attempt ended in (`git_clone`, `setup`, `agent_run`, `final_test`...).
   * Absent (records from before the field): the failure is taken as after the agent ran, so an
   * unattributed failure is never kept out of a pass rate.
   */
  stage?: string | null;
}

/** The class of each reason whose class does not depend on when it happened. */
const FIXED_CLASSES = {
  SETUP_FAILED: 'task',
  SETUP_TIMEOUT: 'task',
  SETUP_DIRTY_WORKTREE: 'task',
  BASELINE_NOT_FAILING: 'task',
  BASELINE_MISMATCH: 'task',
  BASELINE_FLAKY: 'task',
  GIT_CLONE_FAILED: 'task',
  GIT_CHECKOUT_FAILED: 'task',
  TIMEOUT: 'agent',
  TOOL_ERROR: 'agent',
  TESTS_FAILED: 'agent',
  TESTS_TAMPERED: 'agent',
  AGENT_GAVE_UP: 'agent',
  UNKNOWN: 'agent',
  LLM_ERROR: 'infra',
  INTERRUPTED: 'infra',
} as const satisfies Partial<Record<FailureReason, FailureClass>>;

/** Reasons whose class depends on whether the agent had run: who was in control when it happened. */
const ATTRIBUTED_CLASSES = {
  SANDBOX_ERROR: { before: 'infra', after: 'agent' },
  INTERNAL_ERROR: { before: 'infra', after: 'agent' },
  NO_TESTS_COLLECTED: { before: 'task', after: 'agent' },
} as const satisfies Record<Exclude<FailureReason, keyof typeof FIXED_CLASSES>, { before: FailureClass; after: FailureClass }>;

/** True when the stage is one where the agent's code had run, or an unknown stage (see `FailureClassContext.stage`). */
export function hasAgentRun(stage: string | null | undefined): boolean {
  return stage === undefined || stage === null || AGENT_STAGES.includes(stage);
}

/**
 * The class of a failure (see the table in the README). A reason that depends on who was in
 * control (SANDBOX_ERROR, INTERNAL_ERROR, NO_TESTS_COLLECTED) is `infra`/`task` only when the
 * attempt ended before the agent ran: an agent that kills its sandbox's PID 1 or the executor
 * from its own command must not keep that failure out of its pass rate.
 */
export function failureClassOf(reason: FailureReason, context: FailureClassContext = {}): FailureClass {
  if (!isFailureReason(reason)) {
    throw new ScoringError('reason', `expected one of ${FAILURE_REASONS.join(', ')}, found ${describeValue(reason)}`);
  }
  if (reason in FIXED_CLASSES) return FIXED_CLASSES[reason as keyof typeof FIXED_CLASSES];
  const attributed = ATTRIBUTED_CLASSES[reason as keyof typeof ATTRIBUTED_CLASSES];
  return hasAgentRun(context.stage) ? attributed.after : attributed.before;
}

/** The class a record carries, or the one derived from its reason and stage when it has none (older records). */
export function failureClassOfRecord(record: {
  failure_class?: FailureClass | null;
  failure_stage?: string | null;
  result: { passed: boolean; failure_reason?: FailureReason | null };
}): FailureClass | null {
  if (record.result.passed) return null;
  if (record.failure_class !== undefined && record.failure_class !== null) return record.failure_class;
  const reason = record.result.failure_reason;
  if (reason === null || reason === undefined) return 'agent';
  return failureClassOf(reason, { stage: record.failure_stage ?? null });
}
