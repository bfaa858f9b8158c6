import { ScenarioSchema, toValidationIssues, type LoadedMatrix, type Scenario, type ValidationIssue } from '@agentbench/schemas';
import * as v from 'valibot';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { applyCombination, expandMatrix, filterCombinations, type MatrixCombination } from './expand-matrix.js';
import { setPath } from './set-path.js';
import { planScenarioWithRegistry, type PlanScenarioOptions, type ScenarioPlan } from '../plan/plan-scenario.js';
import { scenarioContentIssues } from '../validation/scenario-content-issues.js';

export interface MatrixCheck {
  /** Problems at their place in the matrix file (and the base scenario's), errors and warnings. */
  issues: ValidationIssue[];
  /** The base scenario's plan; undefined when the base scenario is missing. */
  plan?: ScenarioPlan;
  /** Every combination (`filter` applied), with its scenario when it is valid. */
  combinations: MatrixCombination[];
  /** How many combinations there are before `filter`. */
  combinationCount: number;
  scenarios: Map<string, Scenario>;
}

export interface CheckMatrixOptions extends PlanScenarioOptions {
  /** Keep only the combinations whose label matches (as `--filter`). */
  filter?: string;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What a matrix run checks before its first run, as issues at their line: each axis's parameter path
 * exists in the base scenario, each value keeps it valid (schema and evaluators, with the plugins
 * loaded), every combination applies, and the base scenario's own plan (plugins, evaluators, provider).
 * `runMatrix` refuses to start on any error; `ab validate` reports the same issues.
 */
export async function checkMatrix(loaded: LoadedMatrix, options: CheckMatrixOptions = {}): Promise<MatrixCheck> {
  const all = expandMatrix(loaded.matrix);
  const combinations = filterCombinations(all, options.filter);
  const result: MatrixCheck = { issues: [], combinations, combinationCount: all.length, scenarios: new Map() };
  const base = loaded.baseScenario;
  // A missing base scenario is the loader's warning; a run refuses it before checking anything.
  if (base === undefined) return result;
  const { filter: _filter, ...planOptions } = options;
  const { plan, registry, customConditions } = await planScenarioWithRegistry(base, planOptions);
  result.plan = plan;
  result.issues.push(...plan.issues);
  const at = (path: string, message: string): ValidationIssue => ({ file: loaded.file, ...loaded.locate(path), path, message, severity: 'error' });

  // Each axis on its own, so that a problem points at its parameter or value.
  let hasAxisProblem = false;
  loaded.matrix.matrix.forEach((axis, axisIndex) => {
    for (const [valueIndex, value] of axis.values.entries()) {
      let data: unknown;
      try {
        data = setPath(base.scenario, axis.parameter, value);
      } catch (error) {
        // The path is wrong for every value: once, at the parameter.
        hasAxisProblem = true;
        result.issues.push(at(`matrix[${axisIndex}].parameter`, messageOf(error).replace(/^parameter [^:]*: /, '')));
        return;
      }
      const parsed = v.safeParse(ScenarioSchema, data);
      const valuePath = `matrix[${axisIndex}].values[${valueIndex}]`;
      if (!parsed.success) {
        hasAxisProblem = true;
        for (const issue of toValidationIssues(parsed.issues, { file: loaded.file, locate: () => loaded.locate(valuePath), schema: ScenarioSchema })) {
          result.issues.push({ ...issue, path: valuePath, message: `this value makes the base scenario invalid: ${issue.path}: ${issue.message}` });
        }
        continue;
      }
      const applied = { file: base.file, scenario: parsed.output, locate: () => loaded.locate(valuePath) };
      for (const issue of scenarioContentIssues(applied, { registry, ...(customConditions === undefined ? {} : { customConditions }) })) {
        if (issue.severity !== 'error' || plan.issues.some((known) => known.path === issue.path && known.message === issue.message)) continue;
        hasAxisProblem = true;
        result.issues.push({ ...issue, file: loaded.file, path: valuePath, message: `with this value, ${issue.path}: ${issue.message}` });
      }
    }
  });
  if (hasAxisProblem) return result;

  // Then every combination, as the run builds them.
  for (const combination of combinations) {
    try {
      result.scenarios.set(combination.id, applyCombination(base.scenario, combination));
    } catch (error) {
      if (!ScenarioRunnerError.isInstance(error)) throw error;
      result.issues.push(at('matrix', messageOf(error)));
      break;
    }
  }
  return result;
}
