import { describe, expect, it } from 'vitest';
import { cassetteFixture, streamFixture } from '../../test/fixture-streams.js';
import { parseAgentStream } from '../agent-stream-formats.js';
import { mergeGatewayTurns } from '../gateway/merge-gateway-turns.js';
import { trajectoryEvents } from '../trajectory-events.js';
import { agentTranscript } from './agent-transcript.js';
import { atifProblems } from './atif-schema.js';
import { attemptToAtif } from './attempt-to-atif.js';

const at = '2026-11-27T18:00:00.000Z';

describe('attemptToAtif on an installed agent', () => {
  const trajectory = mergeGatewayTurns(parseAgentStream('codex-json', streamFixture('codex'), { workspace: '/workspace' }), cassetteFixture('codex'));
  const events = trajectoryEvents(trajectory, { runId: 'run-1', at, taskId: 'toy_capture', variant: 'codex' });
  const atif = attemptToAtif({ events, agent: { name: 'codex', version: '0.171.0' }, sessionId: 'run-1', instruction: 'Fix the bug in calc.py.' });

  it('writes valid ATIF-v1.6: the instruction, one agent step per model turn with its calls, outputs and tokens', () => {
    expect(atifProblems(atif)).toEqual([]);
    expect(atif).toMatchObject({ schema_version: 'ATIF-v1.6', session_id: 'run-1', agent: { name: 'codex', version: '0.171.0', model_name: 'fake-model' } });
    expect(atif.steps.map((step) => [step.step_id, step.source, step.tool_calls?.map((call) => call.function_name) ?? []])).toEqual([
      [1, 'user', []],
      [2, 'agent', ['command_execution']],
      [3, 'agent', ['file_change']],
      [4, 'agent', ['command_execution']],
      [5, 'agent', []],
    ]);
    expect(atif.steps[1]).toMatchObject({
      message: 'Let me look at the code.',
      tool_calls: [{ tool_call_id: 'item_2', arguments: { command: "/bin/bash -lc 'cat calc.py'" } }],
      observation: { results: [{ source_call_id: 'item_2', content: 'def add(a, b):\n    return a - b\n' }] },
      metrics: { prompt_tokens: 3131, completion_tokens: 9 },
    });
    expect(atif.steps[2]!.extra).toEqual({ files_changed: ['calc.py'] });
    expect(atif.steps[3]!.extra).toEqual({ tool_outcomes: { item_4: { status: 'success', exit_code: 2 } } });
    expect(atif.steps[4]!.message).toBe('Fixed the bug in calc.py.');
    expect(atif.final_metrics).toEqual({ total_prompt_tokens: 12734, total_completion_tokens: 38, total_steps: 5 });
    expect(atif.extra).toMatchObject({ variant: 'codex', started_at: at });
  });
});

describe("attemptToAtif on our agent loop's events and transcript", () => {
  it('takes answers and tool outputs from llm_messages records, and tests as system steps', () => {
    const base = { run_id: 'r', timestamp: at };
    const events = [
      { ...base, event_type: 'run_started', step: null, payload: { task_id: 'toy', variant: 'llm_v0' } },
      { ...base, event_type: 'llm_request_started', step: 1, payload: { model: 'm' } },
      { ...base, event_type: 'llm_request_finished', step: 1, payload: { model: 'm', input_tokens: 10, output_tokens: 2, cost_usd: 0.5 } },
      { ...base, event_type: 'tool_call_started', step: 1, payload: { request_id: 'call_1', tool: 'read_file', params: { path: 'a.py' } } },
      { ...base, event_type: 'tool_call_finished', step: 1, payload: { request_id: 'call_1', tool: 'read_file', status: 'success' } },
      { ...base, event_type: 'tests_started', step: 1, payload: { command: 'pytest -q' } },
      { ...base, event_type: 'tests_finished', step: 1, payload: { exit_code: 1, passed: false } },
      { ...base, event_type: 'agent_stopped', step: 1, payload: { stop_reason: 'MAX_STEPS' } },
    ] as const;
    const transcript = agentTranscript([
      { direction: 'request', body: { messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'Fix the toy bug' }] } },
      { direction: 'response', body: { choices: [{ message: { content: 'Reading a.py', tool_calls: [{ id: 'call_1', function: { name: 'read_file', arguments: '{}' } }] } }] } },
      { direction: 'request', body: { messages: [{ role: 'tool', tool_call_id: 'call_1', content: 'print(1)' }] } },
    ]);
    const atif = attemptToAtif({ events: events as never, agent: { name: 'agentbench', version: '0.1.0' }, sessionId: 'r', transcript });
    expect(atifProblems(atif)).toEqual([]);
    expect(atif.steps.map((step) => [step.source, step.message])).toEqual([
      ['user', 'Fix the toy bug'],
      ['agent', 'Reading a.py'],
      ['system', 'tests: pytest -q'],
      ['system', 'stopped: MAX_STEPS'],
    ]);
    expect(atif.steps[1]).toMatchObject({ observation: { results: [{ source_call_id: 'call_1', content: 'print(1)' }] }, metrics: { prompt_tokens: 10, completion_tokens: 2, cost_usd: 0.5 } });
    expect(atif.steps[2]!.observation).toEqual({ results: [{ content: 'tests failed (exit 1)' }] });
    expect(atif.final_metrics).toMatchObject({ total_cost_usd: 0.5, total_steps: 4 });
  });
});

describe('atifProblems: the rules of the format', () => {
  const valid = { schema_version: 'ATIF-v1.6', session_id: 's', agent: { name: 'a', version: '1' }, steps: [{ step_id: 1, source: 'user', message: 'hi' }] };

  it('accepts a minimal document and refuses what the spec forbids', () => {
    expect(atifProblems(valid)).toEqual([]);
    expect(atifProblems({ ...valid, steps: [] })).toEqual(['steps: a trajectory has at least one step']);
    expect(atifProblems({ ...valid, steps: [{ step_id: 2, source: 'user', message: 'hi' }] })).toEqual(['(document): step_id must run 1, 2, 3… in order']);
    expect(atifProblems({ ...valid, steps: [{ step_id: 1, source: 'user', message: 'hi', metrics: {} }] })[0]).toContain('only applicable when source is "agent"');
    expect(atifProblems({ ...valid, steps: [{ step_id: 1, source: 'agent', message: '', observation: { results: [{ source_call_id: 'x', content: 'c' }] } }] })[0]).toContain("source_call_id must name a tool call of its own step");
    expect(atifProblems({ ...valid, schema_version: 'ATIF-v2' })[0]).toMatch(/^schema_version: /);
    expect(atifProblems({ ...valid, agent: { name: 'a', version: '1', model: 'm' } })[0]).toMatch(/^agent\.model: /);
  });
});
