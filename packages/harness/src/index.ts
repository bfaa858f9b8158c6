// Errors
export { HarnessError } from './errors/harness-error.js';
export { RepositoryError, type RepositoryStage } from './errors/repository-error.js';
export { RunDirectoryError } from './errors/run-directory-error.js';
export { ConfigurationError } from '@agentbench/schemas';
export { AttemptInterruptedError } from './errors/attempt-interrupted-error.js';

// Repositories
export {
  CONFIG_FILE_NAME,
  MIRRORS_ENVIRONMENT_VARIABLE,
  applyMirrorMap,
  loadMirrorMap,
  parseMirrorConfig,
  parseMirrorList,
  type MirrorRule,
} from './git/mirror-map.js';
export { cacheFolderName, normalizeRepositoryUrl } from './git/repository-url.js';
export { CACHE_DIRECTORY_VARIABLE, RepoCache, type CachedRepository, type RepoCacheOptions } from './git/repo-cache.js';
export { prepareWorkspace, type PrepareWorkspaceOptions, type PreparedWorkspace } from './git/prepare-workspace.js';

// Setup
export {
  DEFAULT_PIP_TARGET,
  normalizeSetupCommand,
  normalizeSetupCommands,
  type NormalizeSetupCommandOptions,
} from './setup/normalize-setup-command.js';
export { splitShellSegments, type ShellSegment, type ShellWord } from './setup/shell-words.js';

// Baseline checks
export { parsePytestFailures, type PytestFailures } from './validation/parse-pytest-failures.js';
export {
  checkBaselineExpectations,
  type BaselineExpectations,
  type BaselineMismatch,
  type BaselineRunOutput,
} from './validation/check-baseline-expectations.js';

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
export { relativeToRun, suiteAttemptPaths, taskRunPaths, type AttemptPaths } from './attempt/attempt-paths.js';
export { createDockerSandbox, pooledDockerSandboxFactory, type SandboxFactory } from './attempt/sandbox-factory.js';
export { validateBaseline, type ValidateBaselineOptions } from './baseline/validate-baseline.js';

// Agent attempts and their verdict
export { runAgentAttempt, type AgentAttemptStage, type RunAgentAttemptOptions, type RunAgentAttemptResult } from './agent-attempt/run-agent-attempt.js';
export { FinalVerdict, type FinalVerdictOptions, type VerdictInput, type VerdictOutcome } from './verdict/final-verdict.js';
export { excludingPathspecs, protectedPathspecs } from './verdict/protected-pathspecs.js';
export { WorkTreeSnapshots, SNAPSHOT_MAX_FILE_BYTES, type ChangedPath, type WorkTreeSnapshot, type WorkTreeSnapshotsOptions } from './git/work-tree-snapshots.js';

// Runs and artifacts
export { runTask, type RunTaskOptions, type RunTaskResult } from './run/run-task.js';
export { appendAttemptRecord, dropTornLine, readAttemptRecords, type AttemptsFileContent } from './run/attempts-file.js';
export { createUniqueDirectory } from './run/run-directory.js';
export { EXIT_CODE_INTERRUPTED, interruptOnSignals } from './run/interrupt-on-signals.js';

// Kept workspaces: made safe to keep on the host, and bounded per run
export {
  DEFAULT_LISTED_CHANGES,
  DEFAULT_SANITIZE_MAX_DEPTH,
  sanitizeKeptWorkspace,
  sanitizeManifestPath,
  type SanitizeKeptWorkspaceOptions,
  type SanitizeSummary,
  type WorkspaceChange,
  type WorkspaceChangeAction,
} from './artifacts/sanitize-kept-workspace.js';
export {
  ArtifactBudget,
  DEFAULT_ARTIFACT_BUDGET_BYTES,
  DEFAULT_MEASURE_MAX_DEPTH,
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
export { removeTree } from './artifacts/directory-walk.js';

// Suites
export {
  DEFAULT_SKIP_LABELS,
  defaultConcurrency,
  validateSuite,
  type ValidateSuiteOptions,
  type WorkspaceRetention,
} from './suite/validate-suite.js';
export { isFinalRecord, selectTasksToResume, type ResumeSelection } from './suite/resume-selection.js';
export type { SuiteEvent, SuiteTaskResult, SuiteTaskStatus, ValidateSuiteResult } from './suite/suite-types.js';
export { formatSuiteSummary, formatTable, statusLabel } from './suite/format-suite-summary.js';
export { formatDuration } from './suite/format-duration.js';
export {
  createSuiteProgressReporter,
  type SuiteProgressReporter,
  type SuiteProgressReporterOptions,
} from './suite/suite-progress-reporter.js';
