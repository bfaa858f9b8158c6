import { existsSync } from 'node:fs';
import path from 'node:path';
import { FileValidationError, formatIssue, loadMatrix, loadScenario, validateFile } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { checkMatrix } from '../src/matrix/check-matrix.js';
import { runChecks } from '../src/check/run-checks.js';
import { runMatrix } from '../src/matrix/run-matrix.js';

const base = `name: Base
description: one code step
environment:
  type: local
run:
  - code: echo hello
    evaluations:
      - type: string_contains
        value: hello
judgment:
  strategy: all_pass
`;

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  await directory.write('base.scenario.yaml', base);
});
afterEach(async () => {
  await directory.remove();
});

describe('runChecks: what validate checks is what a run checks', () => {
  it('finds an evaluator type that does not exist, at its line, as an error', async () => {
    const file = await directory.write('s.scenario.yaml', base.replace('type: string_contains', 'type: word_count'));
    const report = await validateFile(file, runChecks({ plugins: { configFile: false } }));
    expect(report.isValid).toBe(false);
    expect(report.issues.map(formatIssue)).toEqual([expect.stringMatching(new RegExp(`^${file}:8:15: run\\[0\\]\\.evaluations\\[0\\]\\.type: unknown evaluator type "word_count"; known types: `))]);
  });

  it('reports a plugin that is not installed, and the evaluator it would provide, as warnings: the file itself is valid', async () => {
    const file = await directory.write('s.scenario.yaml', `plugins: ["@example/not-installed"]\n${base.replace('type: string_contains', 'type: word_count')}`);
    const report = await validateFile(file, runChecks({ plugins: { configFile: false } }));
    expect(report.isValid).toBe(true);
    expect(report.issues.map((issue) => [issue.severity, issue.line, issue.path])).toEqual([
      ['warning', 1, 'plugins'],
      ['warning', 9, 'run[0].evaluations[0].type'],
    ]);
    expect(report.issues[0]?.message).toMatch(/^plugin @example\/not-installed is not installed: .* \(a run stops here until it is installed\)$/);
  });
});

describe('checkMatrix', () => {
  const matrix = (axes: string) => `name: M\nbase_scenario: base.scenario.yaml\nmatrix:\n${axes}`;

  it('accepts a matrix whose paths and values fit the base scenario', async () => {
    const file = await directory.write('m.matrix.yaml', matrix('  - parameter: run[0].code\n    values: [echo a, echo b]\n  - parameter: run[0].evaluations[0].value\n    values: [a, b]\n'));
    const check = await checkMatrix(await loadMatrix(file), { plugins: { configFile: false } });
    expect(check.issues).toEqual([]);
    expect(check.combinations.map((combination) => combination.label)).toEqual([
      'run[0].code="echo a"; run[0].evaluations[0].value="a"',
      'run[0].code="echo a"; run[0].evaluations[0].value="b"',
      'run[0].code="echo b"; run[0].evaluations[0].value="a"',
      'run[0].code="echo b"; run[0].evaluations[0].value="b"',
    ]);
    expect(check.scenarios.size).toBe(4);
  });

  it('points at a parameter path the base scenario does not have, and at a value that breaks an evaluator', async () => {
    const file = await directory.write(
      'm.matrix.yaml',
      matrix('  - parameter: run[2].code\n    values: [echo a]\n  - parameter: run[0].evaluations[0].type\n    values: [string_contains, file_exists]\n'),
    );
    const check = await checkMatrix(await loadMatrix(file), { plugins: { configFile: false } });
    expect(check.issues.map(formatIssue)).toEqual([
      `${file}:4:16: matrix[0].parameter: run[2] does not exist (run has 1 item)`,
      `${file}:7:31: matrix[1].values[1]: with this value, run[0].evaluations[0].path: required field is missing`,
      `${file}:7:31: matrix[1].values[1]: with this value, run[0].evaluations[0].value: unknown field "value" (expected one of: path)`,
    ]);
  });

  it('makes runMatrix refuse the matrix before any run starts, with the same issues', async () => {
    const file = await directory.write('m.matrix.yaml', matrix('  - parameter: run[0].lang\n    values: [bash, cobol]\n'));
    const outDir = path.join(directory.path, 'out');
    const error = await runMatrix(file, { outDir, plugins: { configFile: false } }).catch((caught: unknown) => caught);
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect((error as FileValidationError).issues.map(formatIssue)).toEqual([
      `${file}:5:20: matrix[0].values[1]: with this value, run[0].lang: unknown language "cobol"; expected one of: javascript, js, node, typescript, ts, python, python3, py, bash, shell, sh`,
    ]);
    expect(existsSync(outDir)).toBe(false);
    // The base scenario itself is fine.
    expect((await loadScenario(path.join(directory.path, 'base.scenario.yaml'))).scenario.name).toBe('Base');
  });
});
