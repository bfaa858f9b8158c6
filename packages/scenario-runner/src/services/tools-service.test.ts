import { AgentBenchError } from '@agentbench/schemas';
import { toolDefinition, type ToolSet } from '@agentbench/tools';
import { describe, expect, it } from 'vitest';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { createToolsService } from './tools-service.js';

// A tool set whose read_file always fails the way a missing file does.
const failingToolSet = {
  definitions: () => [toolDefinition('read_file')],
  execute: async (request) => ({
    request_id: request.request_id ?? 'r1',
    tool: 'read_file',
    status: 'error',
    started_at: '2025-01-01T00:00:00.000Z',
    ended_at: '2025-01-01T00:00:00.000Z',
    duration_sec: 0,
    error: { kind: 'file_not_found', message: 'missing.txt does not exist' },
  }),
} as Pick<ToolSet, 'definitions' | 'execute'> as ToolSet;

describe('createToolsService', () => {
  it('throws a failed tool call as a ScenarioRunnerError carrying the tool’s error kind as its code', async () => {
    const method = createToolsService(failingToolSet).methods['read_file'];
    const error = await Promise.resolve(method?.handler?.({ service: 'tools', method: 'read_file', args: [], input: { path: 'missing.txt' }, context: {} })).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: 'ToolCallError', code: 'file_not_found', message: 'missing.txt does not exist', kind: 'service_call' });
    expect(ScenarioRunnerError.isInstance(error)).toBe(true);
    expect(AgentBenchError.isInstance(error)).toBe(true);
  });
});
