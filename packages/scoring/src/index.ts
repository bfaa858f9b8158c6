// The public surface: the taxonomy, judgment and metrics functions, their main option and result
// types, the documented mappings (precedence, stop reasons) and the error. The helpers (ranks,
// exit-code shorthands, the kind table, empty counts, the figures summarizeAttempts builds on) are internal.
export { ScoringError } from './errors/scoring-error.js';

// Failure taxonomy
export { FAILURE_REASON_PRECEDENCE, isFailureReason, pickFailureReason } from './taxonomy/failure-precedence.js';
export { classifyTestExit } from './taxonomy/test-exit.js';
export { STOP_REASON_FAILURES, failureReasonForStopReason } from './taxonomy/stop-reason-mapping.js';
export { failureReasonForError } from './taxonomy/error-classification.js';
export { failureReasonForStage } from './taxonomy/stage-failure.js';
export {
  attributeFailure,
  failureClassOf,
  failureClassOfRecord,
  RUN_STOPPED_CAUSE,
  type FailureAttribution,
  type FailureClass,
} from './taxonomy/failure-class.js';

// Judgment
export { judge, type EvaluationOutcome, type JudgmentVerdict, type JudgmentOptions } from './judgment/judge.js';

// Metrics
export { passRate, wilsonInterval, type PassRate } from './metrics/wilson-interval.js';
export { passAtK, passHatK } from './metrics/pass-at-k.js';
export { mcnemarExact, type McNemarResult } from './metrics/mcnemar-exact.js';
export { seededRandom } from './metrics/seeded-random.js';
export { pairedBootstrapInterval, type BootstrapInterval, type BootstrapOptions } from './metrics/paired-bootstrap-interval.js';
export { summarizeAttempts, type AttemptLike, type AttemptSummary, type KEstimate, type SummarizeOptions } from './metrics/summarize-attempts.js';
