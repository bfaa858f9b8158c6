// Errors
export { EvaluatorsError } from './errors/evaluators-error.js';
export { EvaluationParameterError } from './errors/evaluation-parameter-error.js';
export { EvaluationContextError } from './errors/evaluation-context-error.js';
export { EvaluatorRegistrationError } from './errors/evaluator-registration-error.js';
export { UnknownEvaluatorError } from './errors/unknown-evaluator-error.js';
export { JudgeError, type JudgeErrorKind } from './errors/judge-error.js';
export { PluginLoadError } from './errors/plugin-load-error.js';
export { PluginVersionError } from './errors/plugin-version-error.js';
export { PluginConflictError } from './errors/plugin-conflict-error.js';
export { PluginDefinitionError } from './errors/plugin-definition-error.js';
export { ConfigFileError } from './errors/config-file-error.js';

// The evaluator contract
export { defineEvaluator, type Evaluator, type EvaluationResult, type ParameterSchema } from './evaluator.js';
export { isStandardSchema, type StandardSchemaV1 } from './parameters/index.js';
export {
  createEvaluationContext,
  type EvaluationContext,
  type TrajectoryStep,
  type ConversationTurn,
  type ConversationRecord,
  type CommandResult,
} from './context/evaluation-context.js';

// Registry
export {
  createEvaluatorRegistry,
  COMMON_EVALUATION_KEYS,
  type EvaluatorRegistry,
  type EvaluatorRegistryOptions,
  type ValidateEvaluationsOptions,
} from './registry/evaluator-registry.js';
export { toEvaluationOutcome, type EvaluationReport } from './registry/evaluation-report.js';
export { capText, capDetails, MAX_EVALUATION_MESSAGE_CHARACTERS, MAX_EVALUATION_DETAILS_CHARACTERS } from './registry/bounded-report.js';
export {
  runGuardedEvaluation,
  DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS,
  type GuardedEvaluationOptions,
  type GuardedEvaluationOutcome,
} from './registry/guarded-evaluation.js';

// Built-in evaluators
export { BUILTIN_EVALUATORS, BUILTIN_EVALUATOR_TYPES } from './evaluators/builtin-evaluators.js';
export { stringContainsEvaluator } from './evaluators/string-contains.js';
export { regexMatchEvaluator, REGEX_FLAGS } from './evaluators/regex-match.js';
export { fileExistsEvaluator } from './evaluators/file-exists.js';
export { fileContainsEvaluator } from './evaluators/file-contains.js';
export { commandExitCodeIsEvaluator } from './evaluators/command-exit-code-is.js';
export { trajectoryContainsActionEvaluator, normalizeActionName } from './evaluators/trajectory-contains-action.js';
export { executionTimeEvaluator } from './evaluators/execution-time.js';
export {
  llmJudgeEvaluator,
  LlmJudgeParametersSchema,
  JUDGE_SCALES,
  VERDICT_LEVELS,
  MAX_JUDGES,
  YES_NO_JUDGMENT_SCHEMA,
  LEVELS_JUDGMENT_SCHEMA,
  parseExpectedAnswer,
  meetsExpectedAnswer,
  beliefInYes,
  describeExpectedAnswer,
  type ExpectedAnswer,
  type JudgeScale,
  type JudgeSettings,
  type JudgedQuestion,
  type JudgeVote,
  type LlmJudgeDetails,
  type LlmJudgeParameters,
  type VerdictLevel,
} from './evaluators/llm-judge/index.js';
export { conversationLengthEvaluator } from './evaluators/conversation/conversation-length.js';
export { conversationFlowEvaluator } from './evaluators/conversation/conversation-flow.js';
export { detectFlowPattern, FLOW_PATTERNS, type FlowPattern, type PatternDetection } from './evaluators/conversation/flow-patterns.js';
export { userSatisfactionEvaluator, SATISFACTION_METHODS, type SatisfactionMethod } from './evaluators/conversation/user-satisfaction.js';
export { contextRetentionEvaluator, type RetentionCheck, type RetentionStatus } from './evaluators/conversation/context-retention.js';
export {
  PROBLEM_PHRASES,
  SOLUTION_PHRASES,
  EMPATHY_PHRASES,
  CLARIFICATION_PHRASES,
  ESCALATION_PHRASES,
  ESCALATION_REQUEST_PHRASES,
  DEFAULT_POSITIVE_INDICATORS,
  DEFAULT_NEGATIVE_INDICATORS,
} from './evaluators/conversation/conversation-keywords.js';
export { containsPhrase, countPhrase } from './text/phrase-match.js';

// LLM judge client
export { createJudgeClient, isStructuredOutputRefusal, type JudgeAnswer, type JudgeClient, type JudgeRequest } from './judge/judge-client.js';
export {
  resolveJudgeConfiguration,
  judgeModelFor,
  JUDGE_MODEL_TYPES,
  JUDGE_MODEL_TYPE_NAMES,
  DEFAULT_JUDGE_BASE_URL,
  DEFAULT_JUDGE_MODEL,
  type JudgeClientOptions,
  type JudgeConfiguration,
  type JudgeModelType,
  type StructuredOutputMode,
} from './judge/judge-configuration.js';
export { JudgeCache, judgeCacheKey, type JudgeCacheEntry, type JudgeCacheKeyParts, type TokenUsage, type StructuredOutputTransport } from './judge/judge-cache.js';
export {
  jsonSchemaProblems,
  jsonSchemaViolations,
  prepareStrictSchema,
  SUPPORTED_JSON_SCHEMA_KEYWORDS,
  type JsonSchemaObject,
} from './judge/json-schema-subset.js';
export { describeRunForJudge, conversationTranscript, JUDGE_SYSTEM_PROMPT } from './judge/run-material.js';

// Plugins
export {
  definePlugin,
  isDefinedPlugin,
  pluginDefinitionProblems,
  type PluginDefinition,
  type EnvironmentProviderDefinition,
  type TerminationConditionDefinition,
  type PluginServiceDefinition,
} from './plugins/plugin-definition.js';
export { loadPlugins, resolvePlugins, type PluginLoadOptions, type PluginResolution, type PluginResolutionStatus } from './plugins/load-plugins.js';
export { buildPluginSet, inlinePlugin, type LoadedPlugin, type LoadedPluginSet, type Contribution, type PluginSetOptions } from './plugins/plugin-set.js';
export { pluginRequest, type PluginRequest, type PluginSource } from './plugins/plugin-request.js';
export { resolveModulePath, isPathReference, type ModuleResolution } from '@agentbench/schemas/internal';
export { satisfiesVersion } from './plugins/version-requirement.js';
export { findConfigFile, loadConfigFile, CONFIG_FILE_NAMES, AgentbenchConfigSchema, type AgentbenchConfig, type LoadedConfigFile } from './plugins/config-file.js';
