import { FAILURE_REASONS, type FailureReason } from '@agentbench/schemas';
import { describeValue } from '@agentbench/helpers';
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

/**
 * What the harness knows about the failure: when it happened, and the evidence that lets it
 * blame itself, the engine or the endpoint. Evidence comes from the harness (its own abort
 * signal, the attempt's model proxy), never from what the agent threw or said.
 */
export interface FailureClassContext {
  /**
   * The pipeline stage the attempt ended in (`git_clone`, `setup`, `agent_run`, `final_test`...).
   * Absent (records from before the field): the failure is taken as after the agent ran, so an
   * unattributed failure is never kept out of a pass rate.
   */
  stage?: string | null;
  /**
   * The harness's own abort signal (a Ctrl-C of the run, a run abort) ended the attempt. Without
   * it an `INTERRUPTED` is the agent's: an agent raising an interrupt itself is not the harness.
   */
  isHarnessAbort?: boolean;
  /**
   * The LLM endpoint failed, as the attempt's model proxy saw it on the last exchange (connection
   * refused or cut, a timeout, 5xx or 429 after the client's retries): its description. Without it
   * an `LLM_ERROR` is the agent's (a bad request, 4xx other than 408/429, or an error it declared).
   */
  endpointFailure?: string | null;
  /**
   * The task's repository could not be fetched because the network is unreachable (a name that does
   * not resolve, a connection refused), in git's words: a GIT_CLONE_FAILED is then `infra`, not the task's.
   */
  networkFailure?: string | null;
}

/** The class of each reason whose class does not depend on when it happened. */
const FIXED_CLASSES = {
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
  // A scanner flagged the agent's own diff (or trajectory): the agent's, whatever else failed.
  SUSPECTED_TAMPERING: 'agent',
  AGENT_GAVE_UP: 'agent',
  UNKNOWN: 'agent',
} as const satisfies Partial<Record<FailureReason, FailureClass>>;

/** Reasons the harness must have evidence for to blame itself or the endpoint; without it they are the agent's. */
const EVIDENCED_REASONS = ['LLM_ERROR', 'INTERRUPTED'] as const;
type EvidencedReason = (typeof EVIDENCED_REASONS)[number];

/** Reasons whose class depends on whether the agent had run: who was in control when it happened. */
const ATTRIBUTED_CLASSES = {
  SANDBOX_ERROR: { before: 'infra', after: 'agent' },
  INTERNAL_ERROR: { before: 'infra', after: 'agent' },
  NO_TESTS_COLLECTED: { before: 'task', after: 'agent' },
  // After the agent ran, a setup failure is the agent's diff not applying in the verdict sandbox.
  SETUP_FAILED: { before: 'task', after: 'agent' },
  SETUP_TIMEOUT: { before: 'task', after: 'agent' },
  // The harness's test report is missing or names no required test: at the baseline the task's runner, after the agent's diff the agent's.
  TESTS_NOT_REPORTED: { before: 'task', after: 'agent' },
} as const satisfies Record<Exclude<FailureReason, keyof typeof FIXED_CLASSES | EvidencedReason>, { before: FailureClass; after: FailureClass }>;

/**
 * The cause an attempt ended by the harness's own abort signal records (`failure_cause`): in `ab
 * run` that is the run stopping, which does not use up a retry (a resume runs the try again).
 */
export const RUN_STOPPED_CAUSE = 'the run was stopped: the harness aborted the attempt (Ctrl-C or a run abort)';

/** True when the stage is one where the agent's code had run, or an unknown stage (see `FailureClassContext.stage`). */
export function hasAgentRun(stage: string | null | undefined): boolean {
  return stage === undefined || stage === null || AGENT_STAGES.includes(stage);
}

/**
 * The class of a failure (see the table in the README). A reason that depends on who was in
 * control (SANDBOX_ERROR, INTERNAL_ERROR, NO_TESTS_COLLECTED, SETUP_FAILED, SETUP_TIMEOUT) is
 * `infra`/`task` only when the attempt ended before the agent ran: an agent that kills its
 * sandbox's PID 1 from its own command, or whose diff does not apply, must not keep that failure
 * out of its pass rate. `INTERRUPTED` and `LLM_ERROR` are `infra` only with the harness's own
 * evidence (`isHarnessAbort`, `endpointFailure`); otherwise the agent caused them.
 */
export function failureClassOf(reason: FailureReason, context: FailureClassContext = {}): FailureClass {
  if (!isFailureReason(reason)) {
    throw new ScoringError('reason', `expected one of ${FAILURE_REASONS.join(', ')}, found ${describeValue(reason)}`);
  }
  if (reason === 'GIT_CLONE_FAILED' && hasText(context.networkFailure)) return 'infra';
  if (reason in FIXED_CLASSES) return FIXED_CLASSES[reason as keyof typeof FIXED_CLASSES];
  if (reason === 'INTERRUPTED') return context.isHarnessAbort === true ? 'infra' : 'agent';
  if (reason === 'LLM_ERROR') return hasText(context.endpointFailure) ? 'infra' : 'agent';
  const attributed = ATTRIBUTED_CLASSES[reason as keyof typeof ATTRIBUTED_CLASSES];
  return hasAgentRun(context.stage) ? attributed.after : attributed.before;
}

/** A failure's class and, in words, the evidence that decided it (written as `failure_class` and `failure_cause`). */
export interface FailureAttribution {
  failureClass: FailureClass;
  cause: string;
}

/**
 * The class of a failure with the cause that decided it: who or what the harness blames, and on
 * what evidence. The one place attribution is decided; `failureClassOf` is its class.
 */
export function attributeFailure(reason: FailureReason, context: FailureClassContext = {}): FailureAttribution {
  const failureClass = failureClassOf(reason, context);
  return { failureClass, cause: causeOf(reason, failureClass, context) };
}

function causeOf(reason: FailureReason, failureClass: FailureClass, context: FailureClassContext): string {
  if (reason === 'INTERRUPTED') {
    return failureClass === 'infra' ? RUN_STOPPED_CAUSE : 'interrupted without the harness aborting the attempt: the agent or its own command ended it';
  }
  if (reason === 'LLM_ERROR') {
    return failureClass === 'infra'
      ? `the LLM endpoint failed (seen by the attempt's model proxy): ${context.endpointFailure ?? ''}`
      : 'the LLM endpoint did not fail on the last exchange the attempt\'s model proxy saw: the agent\'s own request was refused (4xx) or the agent declared the error itself';
  }
  if (reason === 'GIT_CLONE_FAILED' && failureClass === 'infra') return `the network is unreachable (git: ${context.networkFailure ?? ''}): the machine's, not the task's`;
  if (reason in FIXED_CLASSES) return failureClass === 'task' ? `${reason} is the task's (its setup, baseline or repository)` : `${reason} is the agent's (its tests, budgets or tools)`;
  const stage = context.stage ?? 'an unrecorded stage';
  if (!hasAgentRun(context.stage)) return `ended in ${stage}, before the agent ran: ${failureClass === 'infra' ? 'the engine or the host' : 'the task'}`;
  if (reason === 'SETUP_FAILED' || reason === 'SETUP_TIMEOUT') return `ended in ${stage}, after the agent ran: its diff does not set up in the verdict sandbox`;
  return `ended in ${stage}, after the agent's code or commands had run: the agent's`;
}

function hasText(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '';
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
