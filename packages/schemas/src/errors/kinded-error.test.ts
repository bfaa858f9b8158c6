import { describe, expect, it } from 'vitest';
import { KindedError } from './kinded-error.js';
import { SchemasError } from './schemas-error.js';

type ShelfKind = 'empty' | 'full';

class ShelfError extends KindedError<ShelfKind> {
  static override readonly marker: symbol = Symbol.for('agentbench.test-shelf-error');
  override readonly name: string = 'ShelfError';
}

describe('KindedError', () => {
  it('carries the kind it was made with, its message and cause, and its class marker', () => {
    const cause = new Error('underneath');
    const error = new ShelfError('full', 'the shelf holds 10 books', { cause });
    expect(error.kind).toBe('full');
    expect(error.message).toBe('the shelf holds 10 books');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('ShelfError');
    expect(ShelfError.isInstance(error)).toBe(true);
    expect(SchemasError.isInstance(error)).toBe(false);
  });
});
