import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MatrixSchema } from './matrix-schema.js';

const base = { name: 'Matrix', base_scenario: 'base.scenario.yaml', matrix: [{ parameter: 'run[0].input', values: ['a', 'b'] }] };

function issuePaths(input: unknown): string[] {
  const result = v.safeParse(MatrixSchema, input);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '');
}

describe('MatrixSchema', () => {
  it('accepts a matrix and defaults runs_per_combination to 1', () => {
    expect(v.parse(MatrixSchema, base)).toEqual({ ...base, runs_per_combination: 1 });
    expect(issuePaths({ ...base, description: 'd', runs_per_combination: 3 })).toEqual([]);
  });

  it('checks runs_per_combination', () => {
    expect(issuePaths({ ...base, runs_per_combination: 0 })).toEqual(['runs_per_combination']);
    expect(issuePaths({ ...base, runs_per_combination: 1.5 })).toEqual(['runs_per_combination']);
  });

  it('refuses a matrix that expands to more runs than the limit, before anything expands it', () => {
    const axis = (parameter: string) => ({ parameter, values: Array.from({ length: 10 }, (_, index) => index) });
    const huge = { ...base, matrix: ['name', 'description', 'run[0].input', 'run[0].name', 'judgment.threshold'].map(axis) };
    const result = v.safeParse(MatrixSchema, huge);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([['matrix', 'the matrix expands to 100,000 runs (100,000 combinations × 1 runs each); the limit is 10,000']]);
    expect(issuePaths({ ...base, runs_per_combination: 5000 })).toEqual([]);
    expect(issuePaths({ ...base, runs_per_combination: 5001 })).toEqual(['matrix']);
  });

  it('requires a non-empty matrix of axes with non-empty values', () => {
    expect(issuePaths({ ...base, matrix: [] })).toEqual(['matrix']);
    expect(issuePaths({ ...base, matrix: [{ parameter: 'name', values: [] }] })).toEqual(['matrix.0.values']);
    expect(issuePaths({ ...base, matrix: [{ parameter: 'name' }] })).toEqual(['matrix.0.values']);
    expect(issuePaths({ ...base, matrix: [{ parameter: 'name', values: [1, null, { a: 1 }, [2]] }] })).toEqual([]);
  });

  it.each(['', 'run..input', 'run[x]', '.name', 'run[0]input'])('rejects parameter path %j', (parameter) => {
    expect(issuePaths({ ...base, matrix: [{ parameter, values: [1] }] })).toEqual(['matrix.0.parameter']);
  });

  it.each(['name', 'run[0].evaluations[0].value', 'setup.mocks[1].response'])('accepts parameter path %j', (parameter) => {
    expect(issuePaths({ ...base, matrix: [{ parameter, values: [1] }] })).toEqual([]);
  });

  it('rejects the same parameter twice', () => {
    expect(issuePaths({ ...base, matrix: [base.matrix[0], { parameter: 'run[0].input', values: ['c'] }] })).toEqual(['matrix.1.parameter']);
  });

  it('requires name and base_scenario and rejects unknown keys', () => {
    expect(issuePaths({ matrix: base.matrix, runs: 2 })).toEqual(['name', 'base_scenario', 'runs']);
  });
});
