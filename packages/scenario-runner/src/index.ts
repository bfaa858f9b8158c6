// Errors
export { ScenarioRunnerError, type ScenarioRunnerErrorKind } from './errors/scenario-runner-error.js';
export { MockedServiceError } from './errors/mocked-service-error.js';
export { NotInstalledError } from './errors/not-installed-error.js';

// Running a scenario
export { runScenario, type RunScenarioOptions, type ScenarioRunEvent } from './run/run-scenario.js';
export {
  SCENARIO_RESULT_SCHEMA_VERSION,
  type ScenarioRunResult,
  type ScenarioRunStatus,
  type ScenarioRunMetrics,
  type StepResult,
  type EvaluationRecord,
  type ConversationStepResult,
  type ConversationTurnResult,
  type RunError,
} from './run/scenario-result.js';
export { formatRunSummary } from './run/format-summary.js';
export { RUN_SETTINGS_FILE, SCENARIO_COPY_FILE } from './run/result-files.js';
export { replayScenarioRun, REPLAY_FILE, type ReplayScenarioRunOptions, type ReplayScenarioRunResult } from './replay/replay-scenario-run.js';
export { isScenarioRunFolder } from './replay/read-scenario-run.js';
export { compareScenarioResults, formatScenarioComparison, verdictOfResult, type ScenarioComparison, type EvaluationOutcome } from './replay/compare-scenario-results.js';

// Dry runs
export { planScenario, type ScenarioPlan, type PlannedStep, type PlannedEvaluator, type PlanScenarioOptions, type PlanStatus } from './plan/plan-scenario.js';
export { scenarioContentIssues, type ScenarioContentOptions } from './check/scenario-content-issues.js';
export { checkMatrix, type MatrixCheck, type CheckMatrixOptions } from './check/check-matrix.js';
export { runChecks } from './check/run-checks.js';
export { formatPlan } from './plan/format-plan.js';

// Matrices
export { runMatrix, type RunMatrixOptions, type MatrixSummary, type MatrixRunRecord, type MatrixDryRun, type MatrixProgressEvent } from './matrix/run-matrix.js';
export { expandMatrix, type MatrixCombination } from './matrix/expand-matrix.js';
export { formatMatrixSummary, formatMatrixDryRun } from './matrix/format-matrix-summary.js';

// Environment providers
export type { EnvironmentProvider, EnvironmentProviderContext, EnvironmentProviderFactory, ExecutionResult, FileSystemOperation, ProviderRunOptions } from './providers/environment-provider.js';
export { SandboxEnvironmentProvider, type SandboxEnvironmentProviderOptions } from './providers/sandbox-environment-provider.js';
export { sandboxBackendProvider, type SandboxBackendProviderDefinition } from './providers/sandbox-backend-provider.js';
export type { CodeLanguage } from './code/code-languages.js';

// Services (the definitions plugins contribute)
export type { ServiceDefinition, ServiceMethodDefinition } from './services/service-definition.js';

// Agents under test
export type { AgentSpec, AgentUnderTest, AgentTurnRequest, AgentTurnResult, ChatMessage } from './agents/agent-under-test.js';
export { parseAgentOption } from './agents/parse-agent-option.js';
export { LlmAgentUnderTest, type LlmAgentUnderTestOptions } from './agents/llm-agent.js';
export { HttpAgentUnderTest } from './agents/http-agent.js';
export { CommandAgentUnderTest, type CommandAgentOptions } from './agents/command-agent.js';

// Conversations
export type { ConversationResult, ConversationTurnRecord } from './conversation/conversation-types.js';

// Environment files
export { parseEnvFile, loadEnvFile, applyEnvironment } from './environment/env-file.js';
