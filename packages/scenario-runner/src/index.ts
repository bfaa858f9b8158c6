// Errors
export { ScenarioRunnerError, type ScenarioRunnerErrorKind } from './errors/scenario-runner-error.js';
export { MockedServiceError } from './errors/mocked-service-error.js';
export { NotInstalledError } from './errors/not-installed-error.js';

// Running a scenario
export { runScenario, chooseAgentSpec, providerNotInstalledError, type RunScenarioOptions, type ScenarioRunEvent } from './run/run-scenario.js';
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
export { slugForPath } from './run/result-files.js';

// Dry runs
export { planScenario, assertPlanValid, type ScenarioPlan, type PlannedStep, type PlannedEvaluator, type PlanScenarioOptions, type PlanStatus } from './plan/plan-scenario.js';
export { scenarioContentIssues, type ScenarioContentOptions } from './check/scenario-content-issues.js';
export { checkMatrix, type MatrixCheck, type CheckMatrixOptions } from './check/check-matrix.js';
export { runChecks } from './check/run-checks.js';
export { formatPlan } from './plan/format-plan.js';

// Matrices
export { runMatrix, aggregateMatrix, type RunMatrixOptions, type MatrixSummary, type MatrixRunRecord, type MatrixDryRun, type MatrixProgressEvent, type RateFigures } from './matrix/run-matrix.js';
export { expandMatrix, filterCombinations, applyCombination, type MatrixCombination } from './matrix/expand-matrix.js';
export { setPath, getPath } from './matrix/set-path.js';
export { formatMatrixSummary, formatMatrixDryRun } from './matrix/format-matrix-summary.js';

// Environment providers
export type { EnvironmentProvider, EnvironmentProviderContext, EnvironmentProviderFactory, ExecutionResult, FileSystemOperation, ProviderRunOptions } from './providers/environment-provider.js';
export { SandboxEnvironmentProvider, FILE_CAPTURE_LIMITS, type SandboxEnvironmentProviderOptions } from './providers/sandbox-environment-provider.js';
export { BUILTIN_PROVIDERS, KNOWN_PROVIDER_PLUGINS, CONTAINER_NODE_PATH, localProviderFactory, dockerProviderFactory } from './providers/builtin-providers.js';
export { sandboxBackendProvider, sandboxBackendOf, type SandboxBackendProviderDefinition } from './providers/sandbox-backend-provider.js';
export { scenarioSandboxSpec, scenarioSandboxLabels } from './providers/scenario-sandbox-spec.js';
export { runCode, stripTypes } from './code/run-code.js';
export { CODE_LANGUAGES, DEFAULT_CODE_LANGUAGE, resolveCodeLanguage, type CodeLanguage } from './code/code-languages.js';

// Services and mocks
export { ServiceRegistry } from './services/service-registry.js';
export { parameterNames, type ServiceDefinition, type ServiceMethodDefinition } from './services/service-definition.js';
export {
  ServiceGateway,
  TOOLS_SERVICE_NAME,
  actionName,
  type ServiceCallRequest,
  type ServiceCallOutcome,
  type ServiceCallError,
  type ServiceCallRecord,
} from './services/service-gateway.js';
export { ScenarioDatabase, createDatabaseService, toSqlValue, DATABASE_SERVICE_NAME } from './services/database-service.js';
export { createToolsService } from './services/tools-service.js';
export { startServicesEndpoint, SERVICES_URL_VARIABLE, type ServicesEndpoint } from './services/services-endpoint.js';
export { MockEngine, type MockEngineOptions, type MockInterception, type ServiceCatalog } from './mocks/mock-engine.js';
export { mockSpecificity, mockTargets, matchesDeclarativeConditions, type ServiceCall } from './mocks/mock-matching.js';
export { IsolatedScriptRunner, scriptSyntaxProblem, wrapScript, type IsolatedScriptRunnerOptions, type ScriptRequest, type ScriptScope, type ScriptKind } from './mocks/isolated-script-runner.js';
export { deepEqual } from './mocks/deep-equal.js';

// Agents under test
export {
  AgentSpecSchema,
  LlmAgentSpecSchema,
  HttpAgentSpecSchema,
  CommandAgentSpecSchema,
  DEFAULT_AGENT_SPEC,
  type AgentSpec,
  type AgentUnderTest,
  type AgentTurnRequest,
  type AgentTurnResult,
  type ChatMessage,
} from './agents/agent-under-test.js';
export { parseAgentOption, checkAgentSpec } from './agents/parse-agent-option.js';
export { LlmAgentUnderTest, DEFAULT_LLM_AGENT_SYSTEM_PROMPT, type LlmAgentUnderTestOptions } from './agents/llm-agent.js';
export { HttpAgentUnderTest } from './agents/http-agent.js';
export { CommandAgentUnderTest, DEFAULT_COMMAND_AGENT_TIMEOUT_MS, type CommandAgentOptions } from './agents/command-agent.js';
export { serviceTools, type ServiceTool } from './agents/service-tools.js';

// Conversations
export { ConversationManager, type ConversationManagerOptions } from './conversation/conversation-manager.js';
export { UserSimulator, buildSimulatorSystemPrompt, buildSimulationPrompt, summarizeEarlierTurns, RECENT_TURNS_IN_FULL, type SimulationContext } from './conversation/user-simulator.js';
export {
  checkTerminationConditions,
  conditionKeywords,
  findCustomCondition,
  customConditionProblem,
  TERMINATION_JUDGE_SCHEMA,
  type TerminationDecision,
  type TerminationDependencies,
  type TerminationJudge,
  type TerminationJudgeVerdict,
  type CustomTerminationCondition,
} from './conversation/termination.js';
export { formatTranscript, type ConversationResult, type ConversationTurnRecord } from './conversation/conversation-types.js';

// LLM roles
export { roleClientOptions, judgeClientOptions, DEFAULT_AGENT_MODEL, DEFAULT_SIMULATOR_MODEL, type LlmSettings, type RoleLlmSettings } from './llm/llm-settings.js';
export { UsageMeter, judgeUsageOf, LLM_ROLES, type LlmRole, type RoleUsage } from './llm/usage-meter.js';

// Plugins
export { resolveRunnerPlugins, loadRunnerPlugins, instantiatePluginServices, createPluginProvider, customTerminationConditions, type RunnerPluginOptions } from './plugins/runner-plugins.js';

// Randomness, environment files, trajectory
export { createSeededRandom, randomSeed, checkSeed, MAX_SEED, type SeededRandom } from './random/seeded-random.js';
export { parseEnvFile, loadEnvFile, applyEnvironment } from './environment/env-file.js';
export { TrajectoryRecorder, clipContent, type TrajectoryEntry } from './trajectory/trajectory-recorder.js';
