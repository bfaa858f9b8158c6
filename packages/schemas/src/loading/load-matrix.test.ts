import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validScenarioYaml } from '../../test/helpers/fixtures.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { FileValidationError } from '../errors/file-validation-error.js';
import { loadMatrix, validateMatrixFile } from './load-matrix.js';
import { formatIssue } from '../errors/validation-issue.js';

const directory = useTemporaryDirectory();

const matrixYaml = `name: Prompts
base_scenario: ../scenarios/base.scenario.yaml
runs_per_combination: 2
matrix:
  - parameter: run[0].input
    values: [hi, hello]
`;

describe('loadMatrix', () => {
  it('resolves base_scenario against the matrix file and loads it', async () => {
    const base = await directory.write('scenarios/base.scenario.yaml', validScenarioYaml);
    const file = await directory.write('matrices/prompts.matrix.yaml', matrixYaml);
    const loaded = await loadMatrix(file);
    expect(loaded.baseScenarioFile).toBe(base);
    expect(loaded.baseScenario?.scenario.name).toBe('Smallest');
    expect(loaded.matrix.runs_per_combination).toBe(2);
    expect(loaded.warnings).toEqual([]);
  });

  it('reports a missing base scenario as a warning at base_scenario, so the matrix still validates', async () => {
    const file = await directory.write('matrices/prompts.matrix.yaml', matrixYaml);
    const result = await validateMatrixFile(file);
    expect(result.success).toBe(true);
    const expectedBase = path.join(directory.path, 'scenarios/base.scenario.yaml');
    expect(result.issues.map(formatIssue)).toEqual([
      `${file}:2:16: warning: base_scenario: base scenario ${expectedBase} not found (base_scenario "../scenarios/base.scenario.yaml" is resolved against the matrix file's folder); the matrix cannot run until it exists`,
    ]);
    expect(result.value?.baseScenario).toBeUndefined();
  });

  it('fails when the base scenario exists but is invalid, with issues in the base file', async () => {
    const base = await directory.write('scenarios/base.scenario.yaml', 'name: Base\ndescription: no run\n');
    const file = await directory.write('matrices/prompts.matrix.yaml', matrixYaml);
    const error = await loadMatrix(file).catch((caught: unknown) => caught);
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect((error as FileValidationError).issues.map((issue) => [issue.file, issue.path])).toEqual([
      [base, 'environment'],
      [base, 'run'],
      [base, 'judgment'],
    ]);
  });

  it('reports matrix errors with positions', async () => {
    const file = await directory.write('bad.matrix.yaml', 'name: Bad\nbase_scenario: x.scenario.yaml\nruns_per_combination: 0\nmatrix:\n  - parameter: "run..input"\n    values: []\n');
    const result = await validateMatrixFile(file);
    expect(result.issues.map(formatIssue)).toEqual([
      `${file}:3:23: runs_per_combination: expected >=1, found 0`,
      `${file}:5:16: matrix[0].parameter: expected a field path of the base scenario like "run[0].input", found "run..input"`,
      `${file}:6:13: matrix[0].values: expected at least one value, found 0`,
    ]);
  });
});
