import {
  EvaluationSchema,
  closestName,
  formatFieldPath,
  parseFieldPath,
  sortIssues,
  toValidationIssues,
  type FieldPath,
  type LoadedScenario,
  type Locate,
  showValue,
  type ValidationIssue,
} from '@agentbench/schemas';
import * as v from 'valibot';
import type { EvaluationContext } from '../context/evaluation-context.js';
import { EvaluationParameterError } from '../errors/evaluation-parameter-error.js';
import { EvaluatorRegistrationError } from '../errors/evaluator-registration-error.js';
import { JudgeError } from '../judge/judge-error.js';
import { UnknownEvaluatorError } from '../errors/unknown-evaluator-error.js';
import { evaluatorShapeProblem, type EvaluationResult, type Evaluator } from '../evaluator.js';
import { BUILTIN_EVALUATORS } from '../evaluators/builtin-evaluators.js';
import { parameterIssues, validateParameters } from '../parameters/validate-parameters.js';
import type { PluginDefinition } from '../plugins/plugin-definition.js';
import { buildPluginSet, inlinePlugin, type LoadedPluginSet } from '../plugins/plugin-set.js';
import { capDetails, capText } from '../text/bounded-report.js';
import type { EvaluationReport } from './evaluation-report.js';
import { DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS, runGuardedEvaluation } from '../guard/guarded-evaluation.js';
import { isRecord } from '@agentbench/helpers';

/** Keys every evaluation entry may have; the rest are the evaluator's parameters. */
export const COMMON_EVALUATION_KEYS = ['type', 'description', 'negate', 'weight', 'timeout_ms'] as const;

export interface ValidateEvaluationsOptions {
  /** File named in issues. */
  file?: string;
  /** Positions of field paths (`LoadedScenario.locate`); without it issues point at line 1. */
  locate?: Locate;
  /** Field path of the list, e.g. `run[0].evaluations`; issue paths continue it. */
  path?: FieldPath;
  /** False when the step has no conversation: conversation evaluators are then an error. Default true. */
  hasConversation?: boolean;
}

export interface EvaluatorRegistry {
  /** Adds an evaluator; throws `EvaluatorRegistrationError` when its type is taken (naming both sources). */
  register(evaluator: Evaluator, options?: { source?: string }): void;
  get(type: string): Evaluator | undefined;
  has(type: string): boolean;
  /** Registered types, sorted. */
  types(): string[];
  /** `built-in`, or the plugin that registered the type. */
  sourceOf(type: string): string | undefined;
  /** Every problem of a list of evaluation entries (unknown types, invalid parameters), with positions. Never throws for bad input. */
  validate(evaluations: readonly unknown[], options?: ValidateEvaluationsOptions): ValidationIssue[];
  /** `validate` over every evaluation list of a loaded scenario (steps, turn and final evaluations of conversations). */
  validateScenario(loaded: Pick<LoadedScenario, 'file' | 'scenario' | 'locate'>): ValidationIssue[];
  /** `validateScenario`, throwing an `EvaluationParameterError` that lists every issue; call it before a run starts. */
  assertValidScenario(loaded: Pick<LoadedScenario, 'file' | 'scenario' | 'locate'>): void;
  /** Runs one entry. Never throws: an unknown type, bad parameters, a thrown error or a judge failure becomes `error` (and `success: false`). */
  evaluate(evaluation: unknown, context: EvaluationContext): Promise<EvaluationReport>;
  /** Runs entries one after the other. */
  evaluateAll(evaluations: readonly unknown[], context: EvaluationContext): Promise<EvaluationReport[]>;
}

export interface EvaluatorRegistryOptions {
  /** Plugins whose evaluators to register: a loaded set (`loadPlugins`) or definitions (`definePlugin`). */
  plugins?: LoadedPluginSet | readonly PluginDefinition[];
  /** Register the built-in evaluators (default true). */
  includeBuiltins?: boolean;
}

const BUILT_IN = 'built-in';

function splitEntry(entry: Record<string, unknown>): { common: Record<string, unknown>; parameters: Record<string, unknown> } {
  const common: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if ((COMMON_EVALUATION_KEYS as readonly string[]).includes(key)) common[key] = value;
    else parameters[key] = value;
  }
  return { common, parameters };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return String(error.message);
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** A result an evaluator returned, checked: a plugin's bug must not become a pass. */
function resultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return `expected {success, message, score?, details?}, found ${result === null ? 'null' : typeof result}`;
  if (typeof result.success !== 'boolean') return `success: expected a boolean, found ${showValue(result.success)}`;
  if (typeof result.message !== 'string') return `message: expected a string, found ${typeof result.message}`;
  if (result.score !== undefined && (typeof result.score !== 'number' || !(result.score >= 0 && result.score <= 1))) {
    return `score: expected a number from 0 to 1, found ${showValue(result.score)}`;
  }
  return undefined;
}

function isLoadedPluginSet(value: EvaluatorRegistryOptions['plugins']): value is LoadedPluginSet {
  return isRecord(value) && value.evaluators instanceof Map;
}

/** A registry with the built-in evaluators and those of `plugins`. */
export function createEvaluatorRegistry(options: EvaluatorRegistryOptions = {}): EvaluatorRegistry {
  const evaluators = new Map<string, { evaluator: Evaluator; source: string; plugin?: { name: string; version: string } }>();

  const register = (evaluator: Evaluator, registerOptions: { source?: string; plugin?: { name: string; version: string } } = {}): void => {
    const source = registerOptions.source ?? 'embedding code';
    const problem = evaluatorShapeProblem(evaluator);
    if (problem !== undefined) throw new EvaluatorRegistrationError(`cannot register an evaluator from ${source}: ${problem}`);
    const existing = evaluators.get(evaluator.type);
    if (existing !== undefined) {
      throw new EvaluatorRegistrationError(`evaluator type "${evaluator.type}" from ${source} is already registered by ${existing.source}`);
    }
    evaluators.set(evaluator.type, { evaluator, source, ...(registerOptions.plugin === undefined ? {} : { plugin: registerOptions.plugin }) });
  };

  if (options.includeBuiltins !== false) for (const evaluator of BUILTIN_EVALUATORS) register(evaluator, { source: BUILT_IN });
  if (options.plugins !== undefined) {
    const set = isLoadedPluginSet(options.plugins) ? options.plugins : buildPluginSet(options.plugins.map(inlinePlugin));
    for (const [, { item, plugin }] of set.evaluators) {
      register(item, { source: `plugin "${plugin.name}" ${plugin.version} (${plugin.resolvedPath})`, plugin: { name: plugin.name, version: plugin.version } });
    }
  }

  const types = (): string[] => [...evaluators.keys()].sort();

  const unknownTypeMessage = (type: string): string => {
    const suggestion = type.length > 80 ? undefined : closestName(type, types());
    if (suggestion !== undefined) return `unknown evaluator type ${showValue(type)} (did you mean "${suggestion}"?)`;
    return (
      `unknown evaluator type ${showValue(type)}; known types: ${types().join(', ')}. ` +
      'If a plugin provides it, list the plugin under `plugins:` in the scenario, pass --plugin, or add it to agentbench.config.json'
    );
  };

  const validate = (evaluations: readonly unknown[], validateOptions: ValidateEvaluationsOptions = {}): ValidationIssue[] => {
    const file = validateOptions.file ?? '(evaluations)';
    const baseLocate: Locate = validateOptions.locate ?? (() => ({ line: 1, column: 1 }));
    const listPath = parseFieldPath(validateOptions.path ?? '');
    const issues: ValidationIssue[] = [];
    evaluations.forEach((entry, index) => {
      const entryPath = [...listPath, index];
      const locate: Locate = (fieldPath, locateOptions) => baseLocate([...entryPath, ...parseFieldPath(fieldPath)], locateOptions);
      const convert = (valibotIssues: readonly v.BaseIssue<unknown>[], schema: v.GenericSchema): ValidationIssue[] =>
        toValidationIssues(valibotIssues, { file, locate, schema }).map((issue) => ({
          ...issue,
          path: formatFieldPath([...entryPath, ...parseFieldPath(issue.path)]),
        }));
      const common = v.safeParse(EvaluationSchema, entry);
      if (!common.success) {
        issues.push(...convert(common.issues, EvaluationSchema));
        return;
      }
      const type = common.output.type;
      const registered = evaluators.get(type);
      if (registered === undefined) {
        issues.push({
          file,
          ...locate('type'),
          path: formatFieldPath([...entryPath, 'type']),
          message: unknownTypeMessage(type),
          expected: types().join(' | '),
          received: showValue(type),
          severity: 'error',
        });
        return;
      }
      if (registered.evaluator.requiresConversation === true && validateOptions.hasConversation === false) {
        issues.push({
          file,
          ...locate('type'),
          path: formatFieldPath([...entryPath, 'type']),
          message: `${type} needs a conversation: put it in \`conversation.final_evaluations\` (or turn_evaluations) of a step with \`conversation:\``,
          severity: 'error',
        });
      }
      const { parameters } = splitEntry(entry as Record<string, unknown>);
      const schema = registered.evaluator.params;
      const parsed = validateParameters(schema, parameters);
      if (parsed instanceof Promise) {
        // An asynchronous schema cannot answer before the run starts: `evaluate` checks it when the entry runs.
        return;
      }
      if (!parsed.isValid) {
        issues.push(
          ...parameterIssues(parsed.issues, schema, { file, locate }).map((issue) => ({ ...issue, path: formatFieldPath([...entryPath, ...parseFieldPath(issue.path)]) })),
        );
      }
    });
    return issues;
  };

  const validateScenario = (loaded: Pick<LoadedScenario, 'file' | 'scenario' | 'locate'>): ValidationIssue[] => {
    const issues: ValidationIssue[] = [];
    loaded.scenario.run.forEach((step, stepIndex) => {
      const common = { file: loaded.file, locate: loaded.locate };
      issues.push(...validate(step.evaluations, { ...common, path: ['run', stepIndex, 'evaluations'], hasConversation: step.conversation !== undefined }));
      if (step.conversation !== undefined) {
        issues.push(...validate(step.conversation.turn_evaluations, { ...common, path: ['run', stepIndex, 'conversation', 'turn_evaluations'] }));
        issues.push(...validate(step.conversation.final_evaluations, { ...common, path: ['run', stepIndex, 'conversation', 'final_evaluations'] }));
      }
    });
    return issues;
  };

  const assertValidScenario = (loaded: Pick<LoadedScenario, 'file' | 'scenario' | 'locate'>): void => {
    const issues = validateScenario(loaded);
    if (issues.some((issue) => issue.severity === 'error')) throw new EvaluationParameterError(sortIssues(issues));
  };

  const evaluate = async (evaluation: unknown, context: EvaluationContext): Promise<EvaluationReport> => {
    const entry = isRecord(evaluation) ? evaluation : {};
    const type = typeof entry.type === 'string' ? entry.type : String(entry.type);
    const description = typeof entry.description === 'string' ? entry.description : undefined;
    const weight = typeof entry.weight === 'number' && Number.isFinite(entry.weight) && entry.weight >= 0 ? entry.weight : 1;
    const negated = entry.negate === true;
    const base = { type, ...(description === undefined ? {} : { description }), weight, negated };
    // Messages and details are capped here, once, for every consumer (result.json included).
    const failure = (error: string, details?: unknown): EvaluationReport => ({
      ...base,
      success: false,
      message: capText(`${type}: could not evaluate: ${error}`),
      error: capText(error),
      ...(details === undefined ? {} : { details: capDetails(details) }),
    });

    if (!isRecord(evaluation)) return failure(`expected an evaluation entry {type, ...parameters}, found ${showValue(evaluation)}`);
    const registered = evaluators.get(type);
    if (registered === undefined) {
      const error = new UnknownEvaluatorError(type, types(), unknownTypeMessage(type));
      return failure(error.message);
    }
    const { parameters } = splitEntry(evaluation);
    const parsed = await validateParameters(registered.evaluator.params, parameters);
    if (!parsed.isValid) {
      const problems = parameterIssues(parsed.issues, registered.evaluator.params, { file: '', locate: () => ({ line: 1, column: 1 }) });
      return failure(`invalid parameters: ${problems.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('; ')}`);
    }
    if (context.signal?.aborted === true) return failure('the run was aborted before this evaluation');
    // A plugin's evaluation runs guarded (a time limit, process.exit blocked); a built-in's only when its entry sets timeout_ms.
    const ownTimeout = Number.isInteger(entry.timeout_ms) && (entry.timeout_ms as number) >= 1 ? (entry.timeout_ms as number) : undefined;
    const timeoutMs = ownTimeout ?? (registered.plugin === undefined ? undefined : DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS);
    const label = registered.plugin === undefined ? `evaluator "${type}" (${registered.source})` : `evaluator "${type}" of plugin "${registered.plugin.name}" ${registered.plugin.version}`;
    let result: EvaluationResult;
    if (registered.plugin === undefined && timeoutMs === undefined) {
      try {
        result = await registered.evaluator.evaluate(parsed.value, context);
      } catch (error) {
        // Tokens a failed judge spent still count.
        const usage = JudgeError.isInstance(error) && error.usage !== undefined ? { usage: error.usage } : undefined;
        return failure(errorMessage(error), usage);
      }
    } else {
      const outcome = await runGuardedEvaluation((signal) => registered.evaluator.evaluate(parsed.value, { ...context, signal }), {
        label,
        ...(timeoutMs === undefined ? {} : { timeoutMs, timeoutSource: ownTimeout !== undefined ? 'timeout_ms of the entry' : `the default for plugin evaluators; set timeout_ms on the entry to change it` }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      if (outcome.kind === 'problem') return failure(outcome.message);
      if (outcome.kind === 'thrown') {
        const usage = JudgeError.isInstance(outcome.error) && outcome.error.usage !== undefined ? { usage: outcome.error.usage } : undefined;
        return failure(`${label} threw: ${errorMessage(outcome.error)}`, usage);
      }
      result = outcome.value;
    }
    const problem = resultProblem(result);
    if (problem !== undefined) return failure(`the evaluator returned an invalid result (${registered.source}): ${problem}`);
    const score = result.score;
    return {
      ...base,
      success: negated ? !result.success : result.success,
      message: capText(negated ? `negated (${result.success ? 'passed, so fails' : 'failed, so passes'}): ${result.message}` : result.message),
      ...(score === undefined ? {} : { score: negated ? 1 - score : score }),
      ...(result.details === undefined ? {} : { details: capDetails(result.details) }),
    };
  };

  const evaluateAll = async (evaluations: readonly unknown[], context: EvaluationContext): Promise<EvaluationReport[]> => {
    const reports: EvaluationReport[] = [];
    for (const evaluation of evaluations) reports.push(await evaluate(evaluation, context));
    return reports;
  };

  return {
    register,
    get: (type) => evaluators.get(type)?.evaluator,
    has: (type) => evaluators.has(type),
    types,
    sourceOf: (type) => evaluators.get(type)?.source,
    validate,
    validateScenario,
    assertValidScenario,
    evaluate,
    evaluateAll,
  };
}
