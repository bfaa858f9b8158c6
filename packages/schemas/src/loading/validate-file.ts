import { detectFileKindByName, fileKindOfData, type FileKind } from './detect-file-kind.js';
import { validateMatrixFile, type LoadedMatrix } from './load-matrix.js';
import { validateScenarioFile, type LoadedScenario } from './load-scenario.js';
import { validateTaskFile } from './load-task.js';
import { inputFileIssue, readInputFile } from './read-input-file.js';
import type { ValidationIssue } from '../errors/validation-issue.js';
import { parseYamlSource } from './yaml-source.js';

export interface FileValidationReport {
  file: string;
  /** Undefined when the kind could not be told (that is itself an error issue). */
  kind: FileKind | undefined;
  /** Every issue of the file, errors and warnings, in file order. */
  issues: ValidationIssue[];
  /** True when no issue is an error. */
  isValid: boolean;
}

/**
 * Checks beyond the file's schema, run on a file that passed it: the scenario runner passes the checks a
 * run makes before it starts (evaluator types and parameters, plugins, matrix parameter paths), so that
 * validating a file and starting a run report the same problems.
 */
export interface FileValidationChecks {
  scenario?: (loaded: LoadedScenario) => Promise<ValidationIssue[]>;
  matrix?: (loaded: LoadedMatrix) => Promise<ValidationIssue[]>;
}

function report(file: string, kind: FileKind | undefined, issues: ValidationIssue[]): FileValidationReport {
  return { file, kind, issues, isValid: !issues.some((issue) => issue.severity === 'error') };
}

/** Validates any task, scenario or matrix file and reports all its issues; never throws for bad input. */
export async function validateFile(file: string, checks: FileValidationChecks = {}): Promise<FileValidationReport> {
  let kind = detectFileKindByName(file);
  if (kind === undefined) {
    // Only a file whose name does not tell is read here, to look at its keys.
    const read = await readInputFile(file);
    if (read.problem !== undefined) return report(file, undefined, [inputFileIssue(file, read.problem)]);
    const source = parseYamlSource(read.text, file);
    if (source.syntaxIssues.length > 0) return report(file, undefined, source.syntaxIssues);
    kind = fileKindOfData(source.data);
  }
  if (kind === undefined) {
    const message = 'cannot tell the kind of file: expected task.yaml (with task_spec_version), *.scenario.yaml or *.matrix.yaml';
    return report(file, kind, [{ file, line: 1, column: 1, path: '', message, severity: 'error' }]);
  }
  if (kind === 'task') return report(file, kind, (await validateTaskFile(file)).issues);
  // Issues of the checks name the loaded (absolute) file; name it as the caller did, like the schema's issues.
  const asPassed = (issues: ValidationIssue[], loadedFile: string): ValidationIssue[] => issues.map((issue) => (issue.file === loadedFile ? { ...issue, file } : issue));
  if (kind === 'scenario') {
    const result = await validateScenarioFile(file);
    if (!result.success || checks.scenario === undefined) return report(file, kind, result.issues);
    return report(file, kind, [...result.issues, ...asPassed(await checks.scenario(result.value), result.value.file)]);
  }
  const result = await validateMatrixFile(file);
  if (!result.success || checks.matrix === undefined) return report(file, kind, result.issues);
  return report(file, kind, [...result.issues, ...asPassed(await checks.matrix(result.value), result.value.file)]);
}
