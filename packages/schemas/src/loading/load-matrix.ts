import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { FileValidationError } from '../errors/file-validation-error.js';
import { MatrixSchema, type Matrix } from '../matrix/matrix-schema.js';
import { validateScenarioFile, type LoadedScenario } from './load-scenario.js';
import { MAX_SHOWN_PATH_CHARACTERS, showText, showValue } from '../shared/display-value.js';
import { readYamlFile } from './read-source-file.js';
import { toValidationIssues } from './valibot-issues.js';
import { hasErrors, sortIssues, type ValidationIssue } from '../errors/validation-issue.js';
import type { ValidationResult } from './validation-result.js';
import type { Locate } from './yaml-source.js';

export interface LoadedMatrix {
  /** Absolute path of the matrix file. */
  file: string;
  dir: string;
  matrix: Matrix;
  /** `base_scenario` resolved against the matrix file's folder. */
  baseScenarioFile: string;
  /** The base scenario, loaded and validated, when the file exists. */
  baseScenario?: LoadedScenario;
  /** Position of a field path of the matrix file (`matrix[1].values[0]`), or of its nearest existing parent. */
  locate: Locate;
  warnings: ValidationIssue[];
}

/**
 * Validates a *.matrix.yaml. A missing base scenario is a warning (so the matrix itself can still be
 * linted); a base scenario that exists is validated and its errors are errors of the matrix.
 */
export async function validateMatrixFile(file: string): Promise<ValidationResult<LoadedMatrix>> {
  const read = await readYamlFile(file, { expected: 'a matrix: a mapping with name, base_scenario and matrix' });
  if (!read.source) return { success: false, issues: read.issues };
  const { source } = read;
  const parsed = v.safeParse(MatrixSchema, source.data);
  if (!parsed.success) {
    return { success: false, issues: sortIssues(toValidationIssues(parsed.issues, { file, locate: source.locate, schema: MatrixSchema })) };
  }
  const matrix = parsed.output;
  const absoluteFile = path.resolve(file);
  const dir = path.dirname(absoluteFile);
  const baseScenarioFile = path.resolve(dir, matrix.base_scenario);
  const issues: ValidationIssue[] = [];
  let baseScenario: LoadedScenario | undefined;
  const baseStat = await stat(baseScenarioFile).catch(() => undefined);
  // A base path that exists but is not a regular file (a folder, a FIFO) is refused by the scenario reader.
  if (baseStat === undefined) {
    issues.push({
      file,
      ...source.locate('base_scenario'),
      path: 'base_scenario',
      message: `base scenario ${showText(baseScenarioFile, MAX_SHOWN_PATH_CHARACTERS)} not found (base_scenario ${showValue(matrix.base_scenario)} is resolved against the matrix file's folder); the matrix cannot run until it exists`,
      severity: 'warning',
    });
  } else {
    const base = await validateScenarioFile(baseScenarioFile);
    issues.push(...base.issues);
    if (base.success) baseScenario = base.value;
  }
  if (hasErrors(issues)) return { success: false, issues: sortIssues(issues) };
  const value: LoadedMatrix = { file: absoluteFile, dir, matrix, baseScenarioFile, locate: source.locate, warnings: issues };
  if (baseScenario) value.baseScenario = baseScenario;
  return { success: true, value, issues };
}

/** Loads a *.matrix.yaml; throws a `FileValidationError` when it (or its existing base scenario) is not valid. */
export async function loadMatrix(file: string): Promise<LoadedMatrix> {
  const result = await validateMatrixFile(file);
  if (!result.success) throw new FileValidationError(result.issues);
  return result.value;
}
