import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '@agentbench/schemas';
import { cassetteFixture, streamFixture } from '../test/fixture-streams.js';
import { parseAgentStream } from './agent-stream-formats.js';
import { mergeGatewayTurns } from './gateway/merge-gateway-turns.js';
import { trajectoryEvents } from './trajectory-events.js';

const at = '2026-11-27T18:00:00.000Z';

describe('trajectoryEvents: an installed agent as our events.jsonl lines', () => {
  it.each([
    ['codex-json', 'codex'],
    ['claude-stream-json', 'claude'],
    ['qwen-json', 'qwen'],
  ] as const)('%s: valid events; model turns with tokens, commands with exit codes, changed files', (format, agent) => {
    const trajectory = mergeGatewayTurns(parseAgentStream(format, streamFixture(agent), { workspace: '/workspace' }), cassetteFixture(agent));
    const events = trajectoryEvents(trajectory, { runId: 'run-1', at, taskId: 'toy_capture', variant: agent, agentVersion: '1.0' });
    for (const event of events) expect(v.safeParse(AgentEventSchema, event).success, JSON.stringify(event)).toBe(true);
    expect(events[0]).toMatchObject({ event_type: 'run_started', payload: { task_id: 'toy_capture', variant: agent, agent_format: format, agent_version: '1.0' } });
    const finished = events.filter((event) => event.event_type === 'llm_request_finished');
    expect(finished.length).toBeGreaterThanOrEqual(4);
    for (const event of finished) expect(event.payload).toMatchObject({ model: 'fake-model', input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    const runs = events.filter((event) => event.event_type === 'tool_call_finished' && event.payload.tool === 'run');
    expect(runs.map((event) => (event.event_type === 'tool_call_finished' ? event.payload.exit_code : undefined))).toEqual([0, 2]);
    expect(events.filter((event) => event.event_type === 'patch_applied').map((event) => event.payload)).toEqual([{ patch_path: null, files_changed: ['calc.py'] }]);
    // A tool call shares the step of the model turn that asked for it, as in our agent loop.
    const firstCall = events.find((event) => event.event_type === 'tool_call_started')!;
    expect(firstCall.step).toBe(1);
    expect(events.filter((event) => event.event_type === 'llm_request_started').map((event) => event.step)).toEqual(finished.map((_, index) => index + 1));
  });

  it('gives a command its command line as params, so two attempts running the same commands compare equal', () => {
    const events = trajectoryEvents(parseAgentStream('claude-stream-json', streamFixture('claude')), { runId: 'r', at });
    const started = events.filter((event) => event.event_type === 'tool_call_started');
    expect(started[0]).toMatchObject({ payload: { tool: 'run', params: { command: 'cat calc.py' }, agent_tool: 'Bash' } });
    expect(events.some((event) => event.event_type === 'run_started')).toBe(false);
  });
});
