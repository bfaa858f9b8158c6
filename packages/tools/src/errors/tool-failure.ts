import type { ToolErrorKind } from '@agentbench/schemas';
import { ToolsError } from './tools-error.js';

/**
 * A tool call that failed for a reason the agent should see (a missing file, a patch that
 * does not apply). Thrown inside a tool and turned into an error ToolResult by the tool set.
 */
export class ToolFailure extends ToolsError {
  static override readonly marker: symbol = Symbol.for('agentbench.tool-failure');
  override readonly name = 'ToolFailure';
  readonly kind: ToolErrorKind;
  readonly details: Record<string, unknown> | undefined;

  constructor(kind: ToolErrorKind, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.details = details;
  }
}
