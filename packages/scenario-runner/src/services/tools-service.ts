import type { ToolSet } from '@agentbench/tools';
import { ulid } from 'ulid';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { TOOLS_SERVICE_NAME } from './service-gateway.js';
import type { ServiceDefinition, ServiceMethodDefinition } from './service-definition.js';

/** A failed tool call, as services report failures: with the tool's error kind as `code`. */
class ToolCallError extends ScenarioRunnerError {
  override readonly name = 'ToolCallError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super('service_call', message);
  }
}

/**
 * The agent's tools (`list_files`, `read_file`, `search`, `apply_patch`, `run` on the environment's
 * sandbox) as the `tools` service, so tool calls meet mocks and the trajectory like any service call.
 */
export function createToolsService(toolSet: ToolSet): ServiceDefinition {
  const methods: Record<string, ServiceMethodDefinition> = {};
  for (const definition of toolSet.definitions()) {
    const tool = definition.function.name;
    methods[tool] = {
      description: definition.function.description,
      parameters: definition.function.parameters,
      handler: async (call, signal) => {
        const result = await toolSet.execute({ tool, params: { ...call.input }, request_id: ulid() }, signal === undefined ? {} : { signal });
        if (result.status === 'error') throw new ToolCallError(result.error?.kind ?? 'tool_error', result.error?.message ?? `${tool} failed`);
        return result.exit_code === null ? result.data : { ...(typeof result.data === 'object' && result.data !== null ? result.data : { data: result.data }), exit_code: result.exit_code };
      },
    };
  }
  return { name: TOOLS_SERVICE_NAME, description: "The agent's workspace tools.", methods };
}
