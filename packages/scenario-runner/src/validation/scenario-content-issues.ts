import type { EvaluatorRegistry } from '@agentbench/evaluators';
import { showValue, type LoadedScenario, type ValidationIssue } from '@agentbench/schemas';
import { knownLanguageNames, resolveCodeLanguage } from '../code/code-languages.js';
import { customConditionProblem, type CustomTerminationCondition } from '../conversation/termination.js';

export interface ScenarioContentOptions {
  /** The registry the run would use (built-ins and the loaded plugins' evaluators). */
  registry: EvaluatorRegistry;
  /** The loaded plugins' termination conditions; undefined when plugins are missing (nothing to check against). */
  customConditions?: ReadonlyMap<string, CustomTerminationCondition>;
}

/**
 * What a run checks in a scenario's own content before it starts, as issues at their line: evaluator
 * types and parameters (also conversation-only evaluators outside a conversation), code step languages
 * and plugin termination conditions. `runScenario`, the dry-run plan and `ab validate` all use it.
 */
export function scenarioContentIssues(loaded: Pick<LoadedScenario, 'file' | 'scenario' | 'locate'>, options: ScenarioContentOptions): ValidationIssue[] {
  const issues = [...options.registry.validateScenario(loaded)];
  const at = (path: string, message: string): ValidationIssue => ({ file: loaded.file, ...loaded.locate(path), path, message, severity: 'error' });
  loaded.scenario.run.forEach((step, index) => {
    if (step.conversation === undefined && step.code !== undefined && resolveCodeLanguage(step.lang) === undefined) {
      issues.push(at(`run[${index}].lang`, `unknown language ${showValue(step.lang)}; expected one of: ${knownLanguageNames().join(', ')}`));
    }
    const available = options.customConditions;
    if (available === undefined) return;
    step.conversation?.termination_conditions.forEach((condition, conditionIndex) => {
      const problem = customConditionProblem(condition, conditionIndex, available, `run[${index}].conversation`);
      if (problem !== undefined) issues.push(at(problem.path, problem.message));
    });
  });
  return issues;
}
