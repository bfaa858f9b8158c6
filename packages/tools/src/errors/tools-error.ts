import { MarkedError } from '@agentbench/schemas';

/**
 * Base error of @agentbench/tools: thrown for a misconfigured tool set (a bad
 * `ToolContext`), never for a bad tool call, which becomes an error ToolResult.
 * `isInstance` works across copies of the package.
 */
export class ToolsError extends MarkedError {
  static override readonly marker: symbol = Symbol.for('agentbench.tools-error');
  override readonly name: string = 'ToolsError';
}
