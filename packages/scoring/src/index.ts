// The public surface: the taxonomy, judgment and metrics functions, their option and result types,
// the documented mappings (precedence, stop reasons) and the error. No `/internal` entry: the
// helpers (ranks, exit-code shorthands, the kind table, empty counts) serve only this package.
export { ScoringError } from './errors/scoring-error.js';

export {
  FAILURE_REASON_PRECEDENCE,
  compareFailureReasons,
  isFailureReason,
  pickFailureReason,
} from './taxonomy/failure-precedence.js';
export {
  classifyTestExit,
  type KilledBy,
  type ProcessOutcome,
  type TestExitCause,
  type TestExitClassification,
} from './taxonomy/test-exit.js';
export { STOP_REASON_FAILURES, failureReasonForStopReason } from './taxonomy/stop-reason-mapping.js';
export { errorKindOf, failureReasonForError, type ErrorKind } from './taxonomy/error-classification.js';
export {
  AGENT_STAGES,
  attributeFailure,
  FAILURE_CLASSES,
  failureClassOf,
  failureClassOfRecord,
  RUN_STOPPED_CAUSE,
  hasAgentRun,
  type FailureAttribution,
  type FailureClass,
  type FailureClassContext,
} from './taxonomy/failure-class.js';
export { failureReasonForStage, type Stage, type StageOutcome } from './taxonomy/stage-failure.js';

export {
  JUDGMENT_STRATEGIES,
  judge,
  type EvaluationOutcome,
  type JudgmentVerdict,
  type JudgmentOptions,
  type JudgmentStrategy,
} from './judgment/judge.js';

export {
  passRate,
  wilsonInterval,
  type IntervalOptions,
  type PassRate,
  type ProportionInterval,
} from './metrics/wilson-interval.js';
export { passAtK, passHatK, type RepeatCounts } from './metrics/pass-at-k.js';
export { mcnemarExact, type McNemarResult } from './metrics/mcnemar-exact.js';
export { seededRandom } from './metrics/seeded-random.js';
export {
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
  pairedBootstrapInterval,
  type BootstrapInterval,
  type BootstrapOptions,
  type PairedValues,
} from './metrics/paired-bootstrap-interval.js';
export { meanFigure, type MeanFigure } from './metrics/mean-figure.js';
export { countFailureReasons, type FailureCounts } from './metrics/failure-counts.js';
export {
  summarizeAttempts,
  type AttemptLike,
  type AttemptSummary,
  type KEstimate,
  type SummarizeOptions,
  type TaskRepeatSummary,
} from './metrics/summarize-attempts.js';
