// The public surface: running, replaying and planning scenarios and matrices, the result, the
// environment providers, services and agents under test that plugins and embedders build on, and
// the env-file helpers the CLI shares. The checks' parts, result file names and conversation records
// are internal (NotInstalledError is a ScenarioRunnerError: tell it by `name`).
export { ScenarioRunnerError } from './errors/scenario-runner-error.js';
export { MockedServiceError } from './errors/mocked-service-error.js';

// Running and replaying a scenario
export { runScenario, type RunScenarioOptions, type ScenarioRunEvent } from './run/run-scenario.js';
export { SCENARIO_RESULT_SCHEMA_VERSION, type ScenarioRunResult } from './run/scenario-result.js';
export { formatRunSummary } from './run/format-summary.js';
export { replayScenarioRun, type ReplayScenarioRunOptions, type ReplayScenarioRunResult } from './replay/replay-scenario-run.js';
export { isScenarioRunFolder } from './replay/read-scenario-run.js';
export { compareScenarioResults, formatScenarioComparison, type ScenarioComparison } from './replay/compare-scenario-results.js';

// Dry runs
export { planScenario, type ScenarioPlan, type PlanScenarioOptions } from './plan/plan-scenario.js';
export { runChecks } from './check/run-checks.js';
export { formatPlan } from './plan/format-plan.js';

// Matrices
export { runMatrix, type RunMatrixOptions, type MatrixSummary, type MatrixDryRun, type MatrixProgressEvent } from './matrix/run-matrix.js';
export { formatMatrixSummary, formatMatrixDryRun } from './matrix/format-matrix-summary.js';

// Environment providers
export type { EnvironmentProvider, EnvironmentProviderContext, EnvironmentProviderFactory, ExecutionResult } from './providers/environment-provider.js';
export { SandboxEnvironmentProvider } from './providers/sandbox-environment-provider.js';
export { sandboxBackendProvider } from './providers/sandbox-backend-provider.js';

// Services (the definitions plugins contribute)
export type { ServiceDefinition, ServiceMethodDefinition } from './services/service-definition.js';

// Agents under test
export type { AgentSpec, AgentUnderTest, AgentTurnRequest, AgentTurnResult } from './agents/agent-under-test.js';
export { parseAgentOption } from './agents/parse-agent-option.js';
export { LlmAgentUnderTest } from './agents/llm-agent.js';
export { HttpAgentUnderTest } from './agents/http-agent.js';
export { CommandAgentUnderTest } from './agents/command-agent.js';

// Environment files
export { loadEnvFile, applyEnvironment } from './environment/env-file.js';
