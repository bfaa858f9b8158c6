// Errors
export { HarnessError } from './errors/harness-error.js';
export { RepositoryError } from './errors/repository-error.js';
export { RunDirectoryError } from './errors/run-directory-error.js';
export { ArtifactWriteError } from './errors/artifact-write-error.js';
export { ConfigurationError } from '@agentbench/schemas';
export { AttemptInterruptedError } from './errors/attempt-interrupted-error.js';
export { UnstartablePlanError, type UnstartableTask } from './errors/unstartable-plan-error.js';

// Repositories
export {
  applyMirrorMap,
  loadMirrorMap,
  parseMirrorList,
  type MirrorRule,
} from './git/mirror-map.js';
export { RepoCache, type RepoCacheOptions } from './git/repo-cache.js';

// Setup and baseline checks
export { normalizeSetupCommand } from './setup/normalize-setup-command.js';
export type { BaselineMismatch } from './validation/check-baseline-expectations.js';

// Attempts
export {
  DEFAULT_RERUN_BUDGET_FRACTION,
  executeAttempt,
  type AttemptMode,
  type AttemptOptions,
  type AttemptOutcome,
  type AttemptStage,
  type AttemptTimings,
  type FlakyRerunPolicy,
  type StageReport,
} from './attempt/execute-attempt.js';
export type { AttemptPaths } from './artifacts/attempt-paths.js';
export { sandboxFactoryFor, createDockerSandbox, pooledDockerSandboxFactory, pooledSandboxFactory, withRuntime, type SandboxFactory } from './plan/sandbox-factory.js';
export { validateBaseline, type ValidateBaselineOptions } from './attempt/validate-baseline.js';

// Agent attempts and their verdict
export {
  runAgentAttempt,
  type AgentAttemptStage,
  type AttemptModelsOptions,
  type AttemptModelsResult,
  type RunAgentAttemptOptions,
  type RunAgentAttemptResult,
} from './attempt/run-agent-attempt.js';
export { replayAgentAttempt, type ReplayAgentAttemptOptions, type ReplayAgentAttemptResult } from './attempt/replay/replay-agent-attempt.js';
export { formatAttemptComparison, type AttemptComparison } from './attempt/replay/compare-attempt-trajectories.js';
export { FinalVerdict, type FinalVerdictOptions, type VerdictInput, type VerdictOutcome } from './verdict/final-verdict.js';
export { protectedPathspecs } from './verdict/protected-pathspecs.js';
// Reads a JUnit XML report as the verdict does (the same limits), for embedders and the benchmark.
export { parseJunitReport, UnreadableTestReport, MAX_TEST_REPORT_BYTES, type TestReport, type TestOutcome } from './test-report/junit-report.js';
export { WorkTreeSnapshots, SNAPSHOT_MAX_FILE_BYTES, type ChangedPath, type WorkTreeSnapshot, type WorkTreeSnapshotsOptions } from './git/work-tree-snapshots.js';

// Runs and artifacts
export { runTask, type RunTaskOptions, type RunTaskResult } from './run/run-task.js';
export { appendAttemptRecord, readAttemptRecords, type AttemptsFileContent } from './artifacts/attempts-file.js';
export { EXIT_CODE_INTERRUPTED, interruptOnSignals } from './run/interrupt-on-signals.js';

// Kept workspaces: made safe to keep on the host, and bounded per run
export {
  sanitizeKeptWorkspace,
  type SanitizeKeptWorkspaceOptions,
  type SanitizeSummary,
  type WorkspaceChange,
  type WorkspaceChangeAction,
} from './artifacts/sanitize-kept-workspace.js';
export {
  ArtifactBudget,
  DEFAULT_ARTIFACT_BUDGET_BYTES,
  formatByteSize,
  formatRunDiskUse,
  measureDiskUse,
  parseByteSize,
  type ArtifactBudgetOptions,
  type ArtifactBudgetSummary,
  type DiskUse,
  type KeepWorkspaceResult,
  type MeasureDiskUseOptions,
} from './artifacts/artifact-budget.js';

// Suites
export { DEFAULT_SKIP_LABELS } from './plan/default-skip-labels.js';
export {
  defaultConcurrency,
  validateSuite,
  type ValidateSuiteOptions,
  type WorkspaceRetention,
} from './suite/validate-suite.js';
export type { SuiteEvent, SuiteTaskResult, SuiteTaskStatus, ValidateSuiteResult } from './suite/suite-types.js';
export { formatSuiteSummary } from './suite/format-suite-summary.js';
export { checkTaskValidity, type CheckTaskValidityOptions, type ReferenceAgentFactory } from './suite/check-task-validity.js';
export { taskValidityVerdict, describeTaskValidity, type ValidityCounts } from './suite/task-validity-verdict.js';
export { SUITE_VALIDITY_FILE, formatSuiteValidity, writeSuiteValidity } from './artifacts/suite-validity-file.js';
export { formatDuration } from './run/format-duration.js';
export {
  createSuiteProgressReporter,
  type SuiteProgressReporter,
  type SuiteProgressReporterOptions,
} from './suite/suite-progress-reporter.js';

// Agent runs at scale (ab run): plan, tries, retries of infrastructure failures, resume
export {
  runAgentRun,
  type AgentRunEntry,
  type AgentRunEvent,
  type AgentRunOptions,
  type AgentRunResult,
  type AttemptTryFunction,
  type AttemptTryInput,
  type PlannedAttempt,
} from './run/run-agent-run.js';
export type { AgentRunProgress } from './run/run-progress.js';
export { formatRunProgress } from './run/format-run-progress.js';
export { RUN_LOCK_FILE } from './run/run-lock.js';

// Benchmarks across models
export { modelFolderName, parseModelList, providerOf, readModelList } from './plan/model-list.js';
export { probeModel, type ModelProbe, type ProbeOutcome } from './benchmark/probe-model.js';
export {
  runModelBenchmark,
  type BenchProgressEvent,
  type ModelBenchmarkOptions,
  type ModelBenchmarkRun,
  type ModelBenchmarkRunEntry,
} from './benchmark/run-model-benchmark.js';

// Several Docker engines: each attempt placed on the engine with the most free capacity; a try lost to its engine is judged cheaply and tried again elsewhere.
export {
  engineSandboxFactory,
  runPlacedAttempt,
  runOnEngine,
  judgeEngineLoss,
  prepareEngines,
  DYING_ENGINE_GRACE_MS,
  type EngineTry,
  type EngineVerdict,
  type EngineWitness,
  type EnginePlacement,
  type EngineSandboxFactory,
  type PlacedOutcome,
  type PlacedAttemptResult,
  type RunPlacedAttemptOptions,
  type PrepareEnginesOptions,
} from './run/engines/index.js';
