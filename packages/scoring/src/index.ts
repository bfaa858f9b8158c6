export { ScoringError } from './errors/scoring-error.js';

export {
  FAILURE_REASON_PRECEDENCE,
  compareFailureReasons,
  failureReasonRank,
  isFailureReason,
  pickFailureReason,
} from './taxonomy/failure-precedence.js';
export {
  classifyTestExit,
  failureReasonForExitCode,
  failureReasonForTestExit,
  type KilledBy,
  type ProcessOutcome,
  type TestExitCause,
  type TestExitClassification,
} from './taxonomy/test-exit.js';
export { STOP_REASON_FAILURES, failureReasonForStopReason } from './taxonomy/stop-reason-mapping.js';
export { ERROR_KIND_FAILURES, errorKindOf, failureReasonForError, type ErrorKind } from './taxonomy/error-classification.js';
export { STAGES, failureReasonForStage, type Stage, type StageOutcome } from './taxonomy/stage-failure.js';

export {
  JUDGMENT_STRATEGIES,
  judge,
  type EvaluationOutcome,
  type JudgmentVerdict,
  type JudgmentOptions,
  type JudgmentStrategy,
} from './judgment/judge.js';

export {
  Z_95,
  passRate,
  wilsonInterval,
  type IntervalOptions,
  type PassRate,
  type ProportionInterval,
} from './metrics/wilson-interval.js';
export { passAtK, passHatK, type RepeatCounts } from './metrics/pass-at-k.js';
export { meanFigure, type MeanFigure } from './metrics/mean-figure.js';
export { countFailureReasons, emptyFailureCounts, type FailureCounts } from './metrics/failure-counts.js';
export {
  summarizeAttempts,
  type AttemptLike,
  type AttemptSummary,
  type KEstimate,
  type SummarizeOptions,
  type TaskRepeatSummary,
} from './metrics/summarize-attempts.js';
