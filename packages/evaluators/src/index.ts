// The public surface: the evaluator and plugin contracts, the registry with its context and report,
// the judge client with its options, the phrase lists the runner shares, and the errors.
// The built-in evaluators' objects and helpers, the judge's cache, schema checks and prompts, and the
// plugin loader's internals are reached through the registry, the judge client and `loadPlugins`.

// Errors (the others, a registration, context, definition, version, conflict or config-file error, are
// EvaluatorsErrors: tell them by `name`)
export { EvaluatorsError } from './errors/evaluators-error.js';
export { EvaluationParameterError } from './errors/evaluation-parameter-error.js';
export { JudgeError } from './judge/judge-error.js';
export { PluginLoadError } from './errors/plugin-load-error.js';

// The evaluator contract
export { defineEvaluator, type Evaluator, type EvaluationResult, type ParameterSchema } from './evaluator.js';
export {
  createEvaluationContext,
  type EvaluationContext,
  type TrajectoryStep,
  type ConversationTurn,
  type ConversationRecord,
  type CommandResult,
} from './context/evaluation-context.js';

// Registry
export { createEvaluatorRegistry, type EvaluatorRegistry, type EvaluatorRegistryOptions } from './registry/evaluator-registry.js';
export { toEvaluationOutcome, type EvaluationReport } from './registry/evaluation-report.js';

// The phrase lists the runner's termination conditions share with the built-in evaluators
export { SOLUTION_PHRASES, ESCALATION_PHRASES, DEFAULT_POSITIVE_INDICATORS } from './evaluators/conversation/conversation-keywords.js';
export { containsPhrase } from './text/phrase-match.js';

// LLM judge client
export { createJudgeClient, type JudgeClient } from './judge/judge-client.js';
export { JUDGE_MODEL_TYPES, type JudgeClientOptions, type JudgeModelType } from './judge/judge-configuration.js';
export type { JsonSchemaObject } from './judge/json-schema-subset.js';

// Plugins
export {
  definePlugin,
  type PluginDefinition,
  type EnvironmentProviderDefinition,
  type TerminationConditionDefinition,
  type PluginServiceDefinition,
} from './plugins/plugin-definition.js';
export { loadPlugins, resolvePlugins, type PluginLoadOptions, type PluginResolution } from './plugins/load-plugins.js';
export type { LoadedPlugin, LoadedPluginSet } from './plugins/plugin-set.js';

// Scanners: suspicions about an agent attempt's changes (built-in rules and plugins' scanners)
export { defineScanner, type Scanner, type ScanInput, type SuspicionFinding } from './scanners/scanner.js';
export { scanChanges, SCANNER_FAILED_RULE, type ScanChangesOptions } from './scanners/scan-changes.js';
export { BUILTIN_SCANNER_NAMES } from './scanners/builtin-scanners.js';
export { loadScanners, type LoadScannersOptions } from './plugins/load-scanners.js';
