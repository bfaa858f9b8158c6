import { ScenarioSchema, showText, showValue, type Matrix, type Scenario } from '@agentbench/schemas';
import * as v from 'valibot';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { setPath } from './set-path.js';

/** One point of the matrix: a value for every parameter. */
export interface MatrixCombination {
  /** From 0, in expansion order (the first axis varies slowest). */
  index: number;
  /** `combination-001`: stable, used for folder names. */
  id: string;
  /** Parameter path to value, in axis order. */
  parameters: Record<string, unknown>;
  /** `run[0].input="List open issues"; run[0].evaluations[0].value="issues"`: what `--filter` matches. */
  label: string;
}

// Labels are shown (progress lines, --dry-run, errors): a value is cut at 80 characters, escaped.
function formatValue(value: unknown): string {
  if (typeof value === 'string') return showValue(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return showText(json ?? String(value));
}

/** The Cartesian product of the axes, first axis outermost. */
export function expandMatrix(matrix: Pick<Matrix, 'matrix'>): MatrixCombination[] {
  let rows: Record<string, unknown>[] = [{}];
  for (const axis of matrix.matrix) {
    rows = rows.flatMap((row) => axis.values.map((value) => ({ ...row, [axis.parameter]: value })));
  }
  const width = String(rows.length).length < 3 ? 3 : String(rows.length).length;
  return rows.map((parameters, index) => ({
    index,
    id: `combination-${String(index + 1).padStart(width, '0')}`,
    parameters,
    label: Object.entries(parameters)
      .map(([parameter, value]) => `${parameter}=${formatValue(value)}`)
      .join('; '),
  }));
}

/**
 * Keeps the combinations whose label contains `pattern` (ignoring case), or, for `/regex/flags`,
 * whose label matches the expression.
 */
export function filterCombinations(combinations: readonly MatrixCombination[], pattern: string | undefined): MatrixCombination[] {
  if (pattern === undefined || pattern === '') return [...combinations];
  const regexForm = /^\/(.+)\/([a-z]*)$/.exec(pattern);
  if (regexForm) {
    let expression: RegExp;
    try {
      expression = new RegExp(regexForm[1] ?? '', regexForm[2]);
    } catch (error) {
      throw new ScenarioRunnerError('matrix', `--filter ${pattern}: not a valid regular expression: ${(error as Error).message}`);
    }
    return combinations.filter((combination) => expression.test(combination.label));
  }
  const needle = pattern.toLowerCase();
  return combinations.filter((combination) => combination.label.toLowerCase().includes(needle));
}

/**
 * The base scenario with the combination's values set, validated again: a value that makes the
 * scenario invalid is an error naming the parameter and the field.
 */
export function applyCombination(base: Scenario, combination: MatrixCombination): Scenario {
  let data: unknown = base;
  for (const [parameter, value] of Object.entries(combination.parameters)) data = setPath(data, parameter, value);
  const parsed = v.safeParse(ScenarioSchema, data);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(scenario)'}: ${issue.message}`);
    throw new ScenarioRunnerError('matrix', `${combination.id} (${combination.label}) makes the base scenario invalid: ${problems.join('; ')}`);
  }
  return parsed.output;
}
