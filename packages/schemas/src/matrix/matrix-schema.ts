import * as v from 'valibot';
import { NonEmptyStringSchema } from '../shared/primitives.js';

/** `name`, `run[0].input`, `setup.mocks[1].response.ok`: dot keys and `[index]` steps. */
export const PARAMETER_PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;

export const MatrixAxisSchema = v.strictObject({
  parameter: v.pipe(
    v.string(),
    v.regex(PARAMETER_PATH_PATTERN, 'expected a field path of the base scenario like "run[0].input"'),
    v.description('Field of the base scenario to override, e.g. run[0].input.'),
  ),
  values: v.pipe(v.array(v.unknown()), v.minLength(1, 'expected at least one value')),
});
export type MatrixAxis = v.InferOutput<typeof MatrixAxisSchema>;

/** Most runs a matrix may expand to (combinations × `runs_per_combination`): more is a mistake, and the list alone would fill memory. */
export const MAX_MATRIX_RUNS = 10_000;

/** `*.matrix.yaml`: runs a base scenario over every combination of parameter values. */
export const MatrixSchema = v.pipe(
  v.strictObject({
    name: NonEmptyStringSchema,
    description: v.optional(v.string()),
    base_scenario: v.pipe(NonEmptyStringSchema, v.description('Path of the base .scenario.yaml, relative to this matrix file.')),
    runs_per_combination: v.optional(v.pipe(v.number(), v.integer('expected an integer'), v.minValue(1)), 1),
    matrix: v.pipe(
      v.array(MatrixAxisSchema),
      v.minLength(1, 'expected at least one axis'),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const seen = new Set<string>();
        dataset.value.forEach((axis, index) => {
          if (seen.has(axis.parameter)) {
            addIssue({
              message: `expected each parameter once; "${axis.parameter}" appears again`,
              path: [
                { type: 'array', origin: 'value', input: dataset.value, key: index, value: axis },
                { type: 'object', origin: 'value', input: axis, key: 'parameter', value: axis.parameter },
              ],
            });
          }
          seen.add(axis.parameter);
        });
      }),
    ),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const combinations = dataset.value.matrix.reduce((product, axis) => product * axis.values.length, 1);
    const runs = combinations * dataset.value.runs_per_combination;
    if (runs <= MAX_MATRIX_RUNS) return;
    addIssue({
      message: `the matrix expands to ${runs.toLocaleString('en-US')} runs (${combinations.toLocaleString('en-US')} combinations × ${dataset.value.runs_per_combination} runs each); the limit is ${MAX_MATRIX_RUNS.toLocaleString('en-US')}`,
      path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'matrix', value: dataset.value.matrix }],
    });
  }),
  v.metadata({ title: 'AgentBench scenario matrix (*.matrix.yaml)' }),
);
export type Matrix = v.InferOutput<typeof MatrixSchema>;
