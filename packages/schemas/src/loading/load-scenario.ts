import path from 'node:path';
import * as v from 'valibot';
import { FileValidationError } from '../errors/file-validation-error.js';
import { ScenarioSchema, type Scenario } from '../scenario/scenario-schema.js';
import { parseFieldPath, type FieldPath } from './field-path.js';
import { readYamlFile } from './read-source-file.js';
import { toValidationIssues } from './valibot-issues.js';
import { sortIssues, type ValidationIssue } from '../errors/validation-issue.js';
import type { ValidationResult } from './validation-result.js';
import type { LocateOptions, SourcePosition } from './yaml-source.js';

/** A validated scenario. `locate` gives the line and column of any field path, e.g. `run[0].evaluations[1].value`. */
export interface LoadedScenario {
  /** Absolute path of the scenario file. */
  file: string;
  /** Absolute folder of the scenario file. */
  dir: string;
  scenario: Scenario;
  /** Position of a field path of `scenario` in the file (its nearest existing parent when the field is absent). */
  locate: (path: FieldPath, options?: LocateOptions) => SourcePosition;
  warnings: ValidationIssue[];
}

/** Validates a *.scenario.yaml and returns every issue (never throws for bad input). */
export async function validateScenarioFile(file: string): Promise<ValidationResult<LoadedScenario>> {
  const read = await readYamlFile(file, { expected: 'a scenario: a mapping with name, description, environment, run and judgment' });
  if (!read.source) return { success: false, issues: read.issues };
  const { source } = read;
  const parsed = v.safeParse(ScenarioSchema, source.data);
  if (!parsed.success) {
    return { success: false, issues: sortIssues(toValidationIssues(parsed.issues, { file, locate: source.locate, schema: ScenarioSchema })) };
  }
  const raw = source.data as { setup?: unknown; environment?: { setup?: unknown } };
  const usesLegacySetup = raw.setup === undefined && raw.environment?.setup !== undefined;
  const warnings: ValidationIssue[] = [];
  if (usesLegacySetup) {
    warnings.push({
      file,
      ...source.locate('environment.setup', { target: 'key' }),
      path: 'environment.setup',
      message: 'setup belongs at the top level of the scenario; `environment.setup` is read as `setup` (older format)',
      severity: 'warning',
    });
  }
  // Paths of the loaded scenario name `setup`; in an older file that block sits under `environment`.
  const locate = (fieldPath: FieldPath, options?: LocateOptions): SourcePosition => {
    const segments = parseFieldPath(fieldPath);
    return source.locate(usesLegacySetup && segments[0] === 'setup' ? ['environment', ...segments] : segments, options);
  };
  const absoluteFile = path.resolve(file);
  return {
    success: true,
    value: { file: absoluteFile, dir: path.dirname(absoluteFile), scenario: parsed.output, locate, warnings },
    issues: warnings,
  };
}

/** Loads a *.scenario.yaml; throws a `FileValidationError` listing every issue when it is not valid. */
export async function loadScenario(file: string): Promise<LoadedScenario> {
  const result = await validateScenarioFile(file);
  if (!result.success) throw new FileValidationError(result.issues);
  return result.value;
}
