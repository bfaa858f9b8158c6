// The public surface: every file format and record (schemas, inferred types, their enumerations and
// versions), the loaders and validators with their issues, limits and JSON Schemas, the display
// helpers messages share, and the errors. Helpers other @agentbench packages share (atomic record
// writes, shell quoting, module resolution, ...) are in `./internal.ts`, not here.

// Versions
export { HARNESS_VERSION, SUPPORTED_TASK_SPEC_VERSIONS } from './version.js';

// Errors
export { AgentBenchError } from './errors/agentbench-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { SchemasError } from './errors/schemas-error.js';
export { FileValidationError } from './errors/file-validation-error.js';
export { SuiteNotFoundError } from './errors/suite-not-found-error.js';
export { InputFileError } from './errors/input-file-error.js';

// Shared building blocks
export { SAFE_IDENTIFIER_PATTERN } from './shared/primitives.js';
export { compareSemver, parseSemver, type SemanticVersion } from './shared/semver.js';
export { closestName } from './shared/closest-name.js';
export { showText, showValue } from './shared/display-value.js';
export { COMMIT_SHA_PATTERN, isCommitSha } from './shared/git-reference.js';

// task.yaml
export {
  TaskSchema,
  TaskRepoSchema,
  TaskEnvironmentSchema,
  TaskSetupSchema,
  TaskRunSchema,
  TaskValidationSchema,
  TaskEvaluationSchema,
  TaskResultsSchema,
  DEFAULT_PROTECTED_PATHS,
  TaskAgentSchema,
  ScriptedToolCallSchema,
  ScriptedToolCallListSchema,
  type Task,
  type TaskInput,
  type TaskRepo,
  type TaskEnvironment,
  type TaskSetup,
  type TaskRun,
  type TaskValidation,
  type TaskEvaluation,
  type TaskResults,
  type TaskAgent,
  type ScriptedToolCall,
} from './task/task-schema.js';

// *.scenario.yaml
export {
  ScenarioSchema,
  ScenarioEnvironmentSchema,
  ScenarioSetupSchema,
  DatabaseSeedSchema,
  DatabaseTableSchema,
  RunStepSchema,
  JudgmentConfigSchema,
  JUDGMENT_STRATEGIES,
  SCENARIO_NETWORK_MODES,
  type Scenario,
  type ScenarioInput,
  type ScenarioEnvironment,
  type ScenarioSetup,
  type DatabaseSeed,
  type DatabaseTable,
  type RunStep,
  type JudgmentConfig,
} from './scenario/scenario-schema.js';
export { EvaluationSchema, MAX_EVALUATION_TIMEOUT_MS, type Evaluation } from './scenario/evaluation-schema.js';
export {
  AgentSpecSchema,
  LlmAgentSpecSchema,
  HttpAgentSpecSchema,
  CommandAgentSpecSchema,
  type AgentSpec,
} from './scenario/scenario-agent-schema.js';
export {
  MockSchema,
  MockConditionSchema,
  MockErrorSchema,
  MockMetadataSchema,
  type Mock,
  type MockCondition,
  type MockError,
  type MockMetadata,
} from './scenario/mock-schema.js';
export {
  PluginReferenceSchema,
  PluginConfigurationSchema,
  type PluginReference,
  type PluginConfiguration,
} from './scenario/plugin-reference-schema.js';
export {
  ConversationConfigSchema,
  ConversationDebugOptionsSchema,
  UserSimulatorConfigSchema,
  TerminationConditionSchema,
  TerminationLlmJudgeSchema,
  TERMINATION_CONDITION_TYPES,
  KNOWLEDGE_LEVELS,
  type ConversationConfig,
  type UserSimulatorConfig,
  type TerminationCondition,
} from './scenario/conversation-schema.js';

// *.matrix.yaml
export { MatrixSchema, MatrixAxisSchema, MAX_MATRIX_RUNS, type Matrix, type MatrixAxis } from './matrix/matrix-schema.js';

// Records
export { FAILURE_REASONS, FailureReasonSchema, type FailureReason } from './records/failure-reason.js';
export { SuspicionSchema, formatSuspicion, type Suspicion } from './records/suspicion.js';
export { STOP_REASONS, StopReasonSchema, type StopReason } from './records/stop-reason.js';
export { FAILURE_CLASS_VALUES, FailureClassSchema, type FailureClassValue } from './records/failure-class.js';
export { RUN_PLAN_VERSION, RunPlanSchema, RunPlanTaskSchema, type RunPlan, type RunPlanTask } from './records/run-plan.js';
export {
  ATTEMPT_RECORD_SCHEMA_VERSION,
  AttemptRecordSchema,
  BaselineValidationResultSchema,
  TaskResultSchema,
  VERDICT_BASES,
  VerdictBasisSchema,
  ModelConfigSchema,
  LimitsConfigSchema,
  AttemptMetricsSchema,
  type AttemptRecord,
  type BaselineValidationResult,
  type TaskResult,
  type VerdictBasis,
  type ModelConfig,
  type LimitsConfig,
  type AttemptMetrics,
  type TaskValidityNote,
} from './records/attempt-record.js';
export {
  RunRecordSchema,
  RunCountsSchema,
  RunKindSchema,
  RunStatusSchema,
  RUN_KINDS,
  RUN_STATUSES,
  type RunRecord,
  type RunCounts,
  type RunKind,
  type RunStatus,
} from './records/run-record.js';
export {
  SuiteValiditySchema,
  TASK_VALIDITY_VERDICTS,
  TaskValiditySchema,
  TaskValidityVerdictSchema,
  type SuiteValidity,
  type TaskValidity,
  type TaskValidityVerdict,
} from './records/suite-validity.js';
export {
  AgentEventSchema,
  AGENT_EVENT_TYPES,
  RunStartedEventSchema,
  RunFinishedEventSchema,
  ToolCallStartedEventSchema,
  ToolCallFinishedEventSchema,
  TestsStartedEventSchema,
  TestsFinishedEventSchema,
  PatchAppliedEventSchema,
  LlmRequestStartedEventSchema,
  LlmRequestFinishedEventSchema,
  LlmRequestFailedEventSchema,
  AgentStoppedEventSchema,
  type AgentEvent,
  type AgentEventType,
  type AgentEventOf,
} from './records/agent-event.js';
export {
  CASSETTE_FORMAT,
  CASSETTE_FORMAT_VERSION,
  CASSETTE_EXCHANGE_SOURCES,
  CASSETTE_SERVED_FROM,
  GATEWAY_BUDGETS,
  CassetteHeaderSchema,
  CassetteExchangeSchema,
  type CassetteHeader,
  type CassetteExchange,
} from './records/cassette-record.js';
export {
  SCENARIO_RUN_SETTINGS_FORMAT,
  SCENARIO_RUN_SETTINGS_VERSION,
  ScenarioRunSettingsSchema,
  type ScenarioRunSettings,
} from './records/scenario-run-settings.js';
export { TOOL_NAMES, ToolNameSchema, ToolRequestSchema, type ToolName, type ToolRequest } from './records/tool-request.js';
export {
  TOOL_ERROR_KINDS,
  TOOL_STATUSES,
  ToolErrorKindSchema,
  ToolErrorSchema,
  ToolResultSchema,
  type ToolErrorKind,
  type ToolError,
  type ToolResult,
} from './records/tool-result.js';

// Artifacts a run writes and reports read, each read through its schema
export { checkArtifact, readArtifactFile, type ArtifactCheck } from './artifacts/check-artifact.js';
export { SCENARIO_RESULT_SCHEMA_VERSION, ScenarioRunResultSchema, type ScenarioRunResult } from './artifacts/scenario-run-result.js';
export { MatrixSummarySchema, type MatrixSummary } from './artifacts/matrix-summary.js';
export { BenchSummarySchema, type BenchSummary } from './artifacts/bench-summary.js';
export { AttemptDetailsSchema, isAttemptDetails, type AttemptDetails } from './artifacts/attempt-details.js';
export { LlmMessageRecordSchema, type LlmMessageRecord } from './artifacts/llm-message-record.js';

// JSON Schema output
export { taskJsonSchema, scenarioJsonSchema, matrixJsonSchema, type JsonSchemaDocument } from './json-schema/json-schemas.js';

// Loading and validation with positions
export { formatIssue, formatIssueList, hasErrors, sortIssues, MAX_LISTED_ISSUES, type ValidationIssue, type IssueSeverity } from './loading/validation-issue.js';
export type { ValidationResult } from './loading/validation-result.js';
export { formatFieldPath, parseFieldPath, type FieldPath, type FieldPathSegments } from './loading/field-path.js';
export {
  parseYamlSource,
  MAX_YAML_TOKENS,
  MAX_NESTING_DEPTH,
  MAX_ALIAS_EXPANSION,
  MAX_SYNTAX_ISSUES,
  type YamlSource,
  type SourcePosition,
  type Locate,
  type LocateOptions,
} from './loading/yaml-source.js';
export {
  readInputFile,
  readInputText,
  MAX_INPUT_FILE_BYTES,
  type ReadInputFileResult,
  type ReadInputFileOptions,
  type InputFileEncoding,
} from './loading/read-input-file.js';
export type { InputFileProblem, InputFileProblemKind } from './loading/input-file-problem.js';
export { toValidationIssues, MAX_CONVERTED_ISSUES, type ValibotIssueOptions } from './loading/valibot-issues.js';
export {
  loadTask,
  validateTaskFile,
  isRemoteRepositoryUrl,
  type LoadedTask,
} from './loading/load-task.js';
export { loadSuite, listSuites, type LoadedSuite } from './loading/load-suite.js';
export { loadScenario, validateScenarioFile, type LoadedScenario } from './loading/load-scenario.js';
export { loadMatrix, validateMatrixFile, type LoadedMatrix } from './loading/load-matrix.js';
export { detectFileKind, type FileKind } from './loading/detect-file-kind.js';
export { validateFile, type FileValidationReport, type FileValidationChecks } from './loading/validate-file.js';

// Docker engines a run places attempts on (`engines` of agentbench.config.json, `--engines FILE`).
export {
  parseEnginesConfig,
  checkEngineHost,
  ENGINE_NAME_PATTERN,
  type EngineConfig,
  type EngineTlsConfig,
  type EnginesConfig,
} from './engines/engine-config.js';
export { loadEnginesFile, loadConfiguredEngines } from './engines/load-engines-file.js';
