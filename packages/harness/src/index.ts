// The public surface of @agentbench/harness: what the CLI, README examples, benches and embedders
// use. Everything else is imported by its file (tests included); see README "Layout".

// Errors
export { HarnessError } from './errors/harness-error.js';
export { RepositoryError } from './errors/repository-error.js';
export { RunDirectoryError } from './errors/run-directory-error.js';
export { ArtifactWriteError } from './errors/artifact-write-error.js';
export { UnstartablePlanError } from './errors/unstartable-plan-error.js';
export { ConfigurationError } from '@agentbench/schemas';

// Repositories
export { loadMirrorMap, parseMirrorList, type MirrorRule } from './git/mirror-map.js';
export { RepoCache, type RepoCacheOptions } from './git/repo-cache.js';

// Sandboxes for attempts
export { sandboxFactoryFor, withRuntime, type SandboxFactory } from './plan/sandbox-factory.js';
// The CPU seconds of a run's sandboxes (run.json's efficiency); the verdict-setup bench meters its attempts with it.
export { SandboxCpuMeter } from './plan/sandbox-cpu-meter.js';

// One attempt: a task's own tests (run-task), a baseline, an agent, a replay
export type { AttemptOutcome, StageReport } from './attempt/execute-attempt.js';
export { runTask, type RunTaskOptions, type RunTaskResult } from './run/run-task.js';
export { validateBaseline, type ValidateBaselineOptions } from './attempt/validate-baseline.js';
export { runAgentAttempt, type RunAgentAttemptOptions, type RunAgentAttemptResult } from './attempt/run-agent-attempt.js';
export { replayAgentAttempt, type ReplayAgentAttemptOptions, type ReplayAgentAttemptResult } from './attempt/replay/replay-agent-attempt.js';
export { formatAttemptComparison } from './attempt/replay/compare-attempt-trajectories.js';
// Reads a JUnit XML report and snapshots a work tree as the verdict does (the same limits), for embedders and the benches.
export { parseJunitReport, UnreadableTestReport, MAX_TEST_REPORT_BYTES, type TestReport } from './test-report/junit-report.js';
export { WorkTreeSnapshots } from './git/work-tree-snapshots.js';

// Runs: interruption, disk use of kept workspaces
export { EXIT_CODE_INTERRUPTED, interruptOnSignals } from './run/interrupt-on-signals.js';
export {
  ArtifactBudget,
  formatByteSize,
  formatRunDiskUse,
  measureDiskUse,
  parseByteSize,
  type ArtifactBudgetOptions,
  type DiskUse,
} from './artifacts/artifact-budget.js';
export { formatDuration } from './run/format-duration.js';

// Suites (ab validate-suite)
export { defaultConcurrency, validateSuite, type ValidateSuiteOptions, type WorkspaceRetention } from './suite/validate-suite.js';
export type { SuiteEvent, SuiteTaskResult, ValidateSuiteResult } from './suite/suite-types.js';
export { formatSuiteSummary } from './suite/format-suite-summary.js';
export { formatSuiteValidity } from './artifacts/suite-validity-file.js';
export { createSuiteProgressReporter, type SuiteProgressReporterOptions } from './suite/suite-progress-reporter.js';

// Agent runs at scale (ab run): plan, tries, retries of infrastructure failures, resume
export { runAgentRun, type AgentRunEvent, type AgentRunOptions, type AgentRunResult } from './run/run-agent-run.js';
export type { AgentRunProgress } from './run/run-progress.js';
export { formatRunProgress } from './run/format-run-progress.js';

// Benchmarks across models (ab bench-models)
export { runModelBenchmark, type BenchProgressEvent, type ModelBenchmarkOptions, type ModelBenchmarkRun } from './benchmark/run-model-benchmark.js';
