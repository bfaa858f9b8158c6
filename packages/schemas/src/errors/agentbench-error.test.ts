import { describe, expect, it } from 'vitest';
import { AgentBenchError } from './agentbench-error.js';
import { ConfigurationError } from './configuration-error.js';
import { FileValidationError } from './file-validation-error.js';
import { SchemasError } from './schemas-error.js';

describe('AgentBenchError', () => {
  it('recognises its subclasses, and a plain object carrying the marker (an error from another copy of the package)', () => {
    expect(AgentBenchError.isInstance(new AgentBenchError('x'))).toBe(true);
    expect(AgentBenchError.isInstance(new SchemasError('x'))).toBe(true);
    expect(AgentBenchError.isInstance(new FileValidationError([]))).toBe(true);
    expect(AgentBenchError.isInstance({ [Symbol.for('agentbench.error')]: true, message: 'from elsewhere' })).toBe(true);
  });

  it('does not recognise a plain Error, an Error named like ours, or a value that is not an object', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'AgentBenchError' });
    for (const value of [new Error('x'), lookalike, { name: 'AgentBenchError' }, 'AgentBenchError', null, undefined, 42]) {
      expect(AgentBenchError.isInstance(value)).toBe(false);
    }
  });

  it('keeps the message, a name and the cause', () => {
    const cause = new Error('underneath');
    const error = new AgentBenchError('on top', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('on top');
    expect(error.name).toBe('AgentBenchError');
    expect(error.cause).toBe(cause);
    expect('cause' in new AgentBenchError('no cause')).toBe(false);
  });

  it('leaves each package its own marker: a package base does not claim another package’s errors', () => {
    expect(SchemasError.isInstance(new ConfigurationError('field', 'bad'))).toBe(false);
    expect(ConfigurationError.isInstance(new SchemasError('x'))).toBe(false);
  });
});

describe('ConfigurationError', () => {
  it('names the field first, keeps it, and is an AgentBenchError', () => {
    const error = new ConfigurationError('OPENROUTER_API_KEY', 'not set', { cause: 'why' });
    expect(error.message).toBe('OPENROUTER_API_KEY: not set');
    expect(error.field).toBe('OPENROUTER_API_KEY');
    expect(error.name).toBe('ConfigurationError');
    expect(error.cause).toBe('why');
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(AgentBenchError.isInstance(error)).toBe(true);
    expect(ConfigurationError.isInstance({ [Symbol.for('agentbench.configuration-error')]: true })).toBe(true);
    expect(ConfigurationError.isInstance(new AgentBenchError('x'))).toBe(false);
  });
});
