import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from './validation-issue.js';
import { FileValidationError } from './file-validation-error.js';
import { SchemasError } from './schemas-error.js';
import { SuiteNotFoundError } from './suite-not-found-error.js';

const issues: ValidationIssue[] = [
  { file: 'a/task.yaml', line: 3, column: 5, path: 'repo.commit', message: 'expected string, found 1', severity: 'error' },
  { file: 'a/task.yaml', line: 9, column: 8, path: 'repo.url', message: 'local repository /x does not exist', severity: 'warning' },
];

describe('FileValidationError', () => {
  it('lists every issue on its own line under a heading', () => {
    const error = new FileValidationError(issues);
    expect(error.message).toBe(
      ['a/task.yaml is not valid (1 error):', '  a/task.yaml:3:5: repo.commit: expected string, found 1', '  a/task.yaml:9:8: warning: repo.url: local repository /x does not exist'].join('\n'),
    );
    expect(error.errors).toEqual([issues[0]]);
    expect(error.name).toBe('FileValidationError');
  });

  it('is recognised through its marker, also from another copy of the package', () => {
    const error = new FileValidationError(issues);
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect(SchemasError.isInstance(error)).toBe(true);
    expect(FileValidationError.isInstance(new Error('x'))).toBe(false);
    expect(FileValidationError.isInstance(new SuiteNotFoundError({ suite: 's', tasksDir: 't', availableSuites: [] }))).toBe(false);
    const foreign = { [Symbol.for('agentbench.schemas.file-validation-error')]: true };
    expect(FileValidationError.isInstance(foreign)).toBe(true);
    expect(Symbol.for('agentbench.error') in error).toBe(true);
  });
});
