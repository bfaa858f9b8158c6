// The public surface: the file formats and records users and the other packages read and write
// (schemas, inferred types, versions), the artifacts' schemas and their reader, the loaders and
// validators, and the errors. A name only this package's tests or files use is not here: tests
// import its file. Helpers other @agentbench packages share are in `@agentbench/helpers`, not here.

// Versions
export { HARNESS_VERSION } from './version.js';

// Errors
export { AgentBenchError } from './errors/agentbench-error.js';
export { MarkedError } from './errors/marked-error.js';
export { KindedError } from './errors/kinded-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { SchemasError } from './errors/schemas-error.js';
export { FileValidationError } from './errors/file-validation-error.js';

// Shared building blocks
export { SAFE_IDENTIFIER_PATTERN } from './shared/primitives.js';
export { closestName } from './shared/closest-name.js';
export { showText, showValue } from './shared/display-value.js';
export { COMMIT_SHA_PATTERN, isCommitSha } from './shared/git-reference.js';

// task.yaml
export {
  DEFAULT_PROTECTED_PATHS,
  ScriptedToolCallListSchema,
  type Task,
  type TaskValidation,
  type ScriptedToolCall,
} from './task/task-schema.js';

// *.scenario.yaml
export {
  ScenarioSchema,
  JUDGMENT_STRATEGIES,
  type Scenario,
  type ScenarioEnvironment,
  type DatabaseSeed,
  type RunStep,
} from './scenario/scenario-schema.js';
export { EvaluationSchema } from './scenario/evaluation-schema.js';
export { AgentSpecSchema, type AgentSpec } from './scenario/scenario-agent-schema.js';
export { type Mock, type MockCondition } from './scenario/mock-schema.js';
export { PluginReferenceSchema, type PluginReference } from './scenario/plugin-reference-schema.js';
export { type ConversationConfig, type UserSimulatorConfig, type TerminationCondition } from './scenario/conversation-schema.js';

// *.matrix.yaml
export { type Matrix } from './matrix/matrix-schema.js';

// Records
export { FAILURE_REASONS, type FailureReason } from './records/failure-reason.js';
export { formatSuspicion, type Suspicion } from './records/suspicion.js';
export { STOP_REASONS, type StopReason } from './records/stop-reason.js';
export { RUN_PLAN_VERSION, type RunPlan } from './records/run-plan.js';
export {
  ATTEMPT_RECORD_SCHEMA_VERSION,
  AttemptRecordSchema,
  type AttemptRecord,
  type BaselineValidationResult,
  type VerdictBasis,
  type ModelConfig,
  type TaskValidityNote,
} from './records/attempt-record.js';
export { RunRecordSchema, type RunRecord, type RunCounts } from './records/run-record.js';
export {
  SuiteValiditySchema,
  TaskValiditySchema,
  type SuiteValidity,
  type TaskValidity,
  type TaskValidityVerdict,
} from './records/suite-validity.js';
export { AgentEventSchema, type AgentEvent, type AgentEventType, type AgentEventOf } from './records/agent-event.js';
export {
  CASSETTE_FORMAT,
  CASSETTE_FORMAT_VERSION,
  CASSETTE_SERVED_FROM,
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
} from './scenario/scenario-run-settings.js';
export { TOOL_NAMES, type ToolName, type ToolRequest } from './records/tool-request.js';
export { type ToolErrorKind, type ToolResult } from './records/tool-result.js';

// Artifacts a run writes and reports read, each read through its schema
export { checkArtifact, readArtifactFile } from './artifacts/check-artifact.js';
export { SCENARIO_RESULT_SCHEMA_VERSION, ScenarioRunResultSchema, type ScenarioRunResult } from './artifacts/scenario-run-result.js';
export { MatrixSummarySchema, type MatrixSummary } from './artifacts/matrix-summary.js';
export { BenchSummarySchema, type BenchSummary, type ProbeOutcome } from './artifacts/bench-summary.js';
export { AttemptDetailsSchema, isAttemptDetails, type AttemptDetails } from './artifacts/attempt-details.js';
export { LlmMessageRecordSchema, type LlmMessageRecord } from './artifacts/llm-message-record.js';

// JSON Schema output
export { taskJsonSchema, scenarioJsonSchema, matrixJsonSchema } from './json-schema/json-schemas.js';

// Loading and validation with positions
export { formatIssue, formatIssueList, hasErrors, sortIssues, type ValidationIssue } from './errors/validation-issue.js';
export { formatFieldPath, parseFieldPath, type FieldPath, type FieldPathSegments } from './loading/field-path.js';
export { parseYamlSource, MAX_YAML_TOKENS, MAX_ALIAS_EXPANSION, type Locate } from './loading/yaml-source.js';
export { readInputFile, readInputText, MAX_INPUT_FILE_BYTES } from './loading/read-input-file.js';
export { toValidationIssues } from './loading/valibot-issues.js';
export { loadTask, validateTaskFile, isRemoteRepositoryUrl, type LoadedTask } from './loading/load-task.js';
export { loadSuite } from './loading/load-suite.js';
export { loadScenario, type LoadedScenario } from './loading/load-scenario.js';
export { loadMatrix, type LoadedMatrix } from './loading/load-matrix.js';
export { detectFileKind } from './loading/detect-file-kind.js';
export { validateFile, type FileValidationReport, type FileValidationChecks } from './loading/validate-file.js';

// Docker engines a run places attempts on (`engines` of agentbench.config.json, `--engines FILE`).
export { type EngineConfig } from './engines/engine-config.js';
export { loadEnginesFile, loadConfiguredEngines } from './engines/load-engines-file.js';
