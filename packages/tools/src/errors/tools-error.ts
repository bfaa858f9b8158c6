import { AgentBenchError } from '@agentbench/schemas';

const toolsMarker = Symbol.for('agentbench.tools-error');

/**
 * Base error of @agentbench/tools: thrown for a misconfigured tool set (a bad
 * `ToolContext`), never for a bad tool call, which becomes an error ToolResult.
 * `isInstance` works across copies of the package.
 */
export class ToolsError extends AgentBenchError {
  readonly [toolsMarker] = true;
  override readonly name: string = 'ToolsError';

  static override isInstance(value: unknown): value is ToolsError {
    return typeof value === 'object' && value !== null && toolsMarker in value;
  }
}
