import { describe, expect, it } from 'vitest';
import { AgentBenchError } from './agentbench-error.js';
import { FileValidationError } from './file-validation-error.js';
import { InputFileError } from './input-file-error.js';
import { SchemasError } from './schemas-error.js';

describe('MarkedError', () => {
  it('marks an instance with its class marker and every marker above it, and isInstance checks the class it is called on', () => {
    const error = new FileValidationError([]);
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect(SchemasError.isInstance(error)).toBe(true);
    expect(AgentBenchError.isInstance(error)).toBe(true);
    expect(InputFileError.isInstance(error)).toBe(false);
    expect(FileValidationError.isInstance(new SchemasError('x'))).toBe(false);
    expect(SchemasError.isInstance(new AgentBenchError('x'))).toBe(false);
    expect(error.name).toBe('FileValidationError');
  });

  it('recognises a plain object carrying the marker (an error from another copy of the package)', () => {
    const foreign = { [Symbol.for('agentbench.schemas-error')]: true, message: 'from elsewhere' };
    expect(SchemasError.isInstance(foreign)).toBe(true);
    expect(FileValidationError.isInstance(foreign)).toBe(false);
  });
});
