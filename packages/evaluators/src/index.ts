// The public surface: the evaluator and plugin contracts, the registry with its context and report,
// the judge client with its options, the documented limits, defaults and phrase lists, and the errors.
// The built-in evaluators' objects and helpers, the judge's cache, schema checks and prompts, and the
// plugin loader's internals are reached through the registry, the judge client and `loadPlugins`.

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
  type EvaluatorRegistry,
  type EvaluatorRegistryOptions,
  type ValidateEvaluationsOptions,
} from './registry/evaluator-registry.js';
export { toEvaluationOutcome, type EvaluationReport } from './registry/evaluation-report.js';
export { MAX_EVALUATION_MESSAGE_CHARACTERS, MAX_EVALUATION_DETAILS_CHARACTERS } from './registry/bounded-report.js';
export { DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS } from './registry/guarded-evaluation.js';

// What built-in evaluators report and match (the phrase lists also serve the runner's termination conditions)
export type { JudgedQuestion, JudgeVote, LlmJudgeDetails } from './evaluators/llm-judge/index.js';
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
export { containsPhrase } from './text/phrase-match.js';

// LLM judge client
export { createJudgeClient, type JudgeAnswer, type JudgeClient, type JudgeRequest } from './judge/judge-client.js';
export {
  DEFAULT_JUDGE_BASE_URL,
  DEFAULT_JUDGE_MODEL,
  JUDGE_MODEL_TYPES,
  type JudgeClientOptions,
  type CachedJudgeExchange,
  type JudgeModelType,
  type StructuredOutputMode,
} from './judge/judge-configuration.js';
export type { TokenUsage } from './judge/judge-cache.js';
export type { JsonSchemaObject } from './judge/json-schema-subset.js';

// Plugins
export {
  definePlugin,
  type PluginDefinition,
  type EnvironmentProviderDefinition,
  type TerminationConditionDefinition,
  type PluginServiceDefinition,
} from './plugins/plugin-definition.js';
export { loadPlugins, resolvePlugins, type PluginLoadOptions, type PluginResolution, type PluginResolutionStatus } from './plugins/load-plugins.js';
export type { LoadedPlugin, LoadedPluginSet, Contribution } from './plugins/plugin-set.js';
export type { PluginRequest, PluginSource } from './plugins/plugin-request.js';

// Scanners: suspicions about an agent attempt's changes (built-in rules and plugins' scanners)
export { defineScanner, type Scanner, type ScanInput, type SuspicionFinding } from './scanners/scanner.js';
export type { DiffFile, DiffHunk, HunkLine } from './scanners/unified-diff.js';
export { scanChanges, SCANNER_FAILED_RULE, type ScanChangesOptions } from './scanners/scan-changes.js';
export { BUILTIN_SCANNER_NAMES } from './scanners/builtin-scanners.js';
export { loadScanners, type LoadScannersOptions } from './scanners/load-scanners.js';
