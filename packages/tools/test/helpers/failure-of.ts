import { ToolFailure } from '../../src/errors/tool-failure.js';

/** The ToolFailure `action` throws; anything else it throws is rethrown, and throwing nothing fails the test. */
export function failureOf(action: () => unknown): ToolFailure {
  try {
    action();
  } catch (error) {
    if (ToolFailure.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolFailure');
}
