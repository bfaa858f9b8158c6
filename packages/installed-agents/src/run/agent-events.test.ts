import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentEventSchema, type AgentEvent, type StopReason } from '@agentbench/schemas';
import { LocalSandbox, type Sandbox } from '@agentbench/sandbox';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { cassetteFixture } from '../../../trajectories/test/fixture-streams.js';
import { findAgentDefinition } from '../definition/list-agent-definitions.js';
import type { AgentDefinition } from '../definition/load-agent-definition.js';
import { installAgent, type AgentInstallation } from '../install/install-agent.js';
import { runInstalledAgent } from './run-installed-agent.js';

// The runner's events.jsonl on the local backend: an "agent" that prints a real Codex CLI --json
// stream (captured against the fake server through the gateway), and the gateway's recorded
// exchanges of that same run (the Docker tests run the real agents and the real gateway).
const streams = fileURLToPath(new URL('../../../trajectories/test/fixtures/streams/', import.meta.url));
let sandbox: Sandbox;
let scratch: TemporaryDirectory;
let command: { definition: AgentDefinition; installation: AgentInstallation };

beforeAll(async () => {
  sandbox = await LocalSandbox.create({}, { isWarningSilenced: true });
  scratch = await createTemporaryDirectory();
  const definition = await findAgentDefinition('command');
  command = { definition, installation: await installAgent(definition) };
});
afterAll(async () => {
  await sandbox.dispose();
  await scratch.remove();
});

/** The command agent reading as `format` what `cat FILE` prints, the gateway's answers those of the codex fixture's run. */
async function runPrinting(file: string, format: string, eventsFile: string, budgetStop?: StopReason) {
  return runInstalledAgent({
    sandbox,
    ...command,
    definition: { ...command.definition, version: '0.171.0', command: ['/bin/cat', file], output: { ...command.definition.output, format } },
    instruction: 'Fix the bug in calc.py.',
    baseUrl: 'http://127.0.0.1:4010',
    model: 'fake-model',
    timeoutSec: 30,
    events: {
      file: eventsFile,
      runId: 'run-1',
      taskId: 'toy_calc',
      variant: 'codex',
      gateway: { recordedExchanges: async () => cassetteFixture('codex'), outcome: () => ({ budgetStop: budgetStop === undefined ? undefined : { stopReason: budgetStop } }) },
    },
  });
}

async function readEvents(file: string): Promise<AgentEvent[]> {
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => v.parse(AgentEventSchema, JSON.parse(line)));
}

describe('runInstalledAgent writes events.jsonl', () => {
  it("appends the agent's stream and the gateway's turns as our loop's events: run_started, model turns, commands, changed files, agent_stopped", async () => {
    const eventsFile = path.join(scratch.path, 'attempt', 'events.jsonl');
    await scratch.write('attempt/events.jsonl', '{"earlier":"line"}\n');
    const run = await runPrinting(path.join(streams, 'codex.jsonl'), 'codex-json', eventsFile);
    expect(run.stopReason).toBe('SUCCESS');
    expect((await readFile(eventsFile, 'utf8')).split('\n')[0]).toBe('{"earlier":"line"}');
    await scratch.write('attempt/events.jsonl', (await readFile(eventsFile, 'utf8')).split('\n').slice(1).join('\n'));
    const events = await readEvents(eventsFile);
    expect(events.map((event) => event.event_type)).toEqual([
      'run_started',
      'llm_request_started', 'llm_request_finished', 'tool_call_started', 'tool_call_finished',
      'llm_request_started', 'llm_request_finished', 'tool_call_started', 'tool_call_finished', 'patch_applied',
      'llm_request_started', 'llm_request_finished', 'tool_call_started', 'tool_call_finished',
      'llm_request_started', 'llm_request_finished',
      'agent_stopped',
    ]);
    expect(events[0]).toMatchObject({ run_id: 'run-1', payload: { task_id: 'toy_calc', variant: 'codex', agent_version: '0.171.0' } });
    const recorded = cassetteFixture('codex').filter((exchange) => exchange.role === 'agent');
    // The turns carry the gateway's counts: codex's stream has none per request.
    expect(events.filter((event) => event.event_type === 'llm_request_finished')).toHaveLength(recorded.length);
    expect(events.find((event) => event.event_type === 'llm_request_finished')?.payload.input_tokens).toBeTypeOf('number');
    expect(events.filter((event) => event.event_type === 'tool_call_started').map((event) => event.payload.params)).toContainEqual({ command: "/bin/bash -lc 'cat calc.py'" });
    // The fixture ran in /workspace, not this local sandbox's folder: the path stays whole (the Docker test sees it relative).
    expect(events.find((event) => event.event_type === 'patch_applied')?.payload.files_changed).toEqual(['/workspace/calc.py']);
    expect(events.at(-1)).toMatchObject({ step: 4, payload: { stop_reason: 'SUCCESS' } });
    // With the errors codex reported on the way (a warning about the fake model's metadata).
    expect(events.at(-1)?.payload.message).toMatch(/^command exited 0; Model metadata for `fake-model` not found/);
  });

  it("takes the gateway's budget stop as the stop reason, and a stream it cannot read leaves the gateway's turns and says why", async () => {
    const garbage = await scratch.write('garbage.txt', 'not a json line\n');
    const eventsFile = path.join(scratch.path, 'budget', 'events.jsonl');
    const run = await runPrinting(garbage, 'claude-stream-json', eventsFile, 'MAX_STEPS');
    expect(run.stopReason).toBe('MAX_STEPS');
    const events = await readEvents(eventsFile);
    expect(events.filter((event) => event.event_type === 'llm_request_finished')).toHaveLength(cassetteFixture('codex').filter((exchange) => exchange.role === 'agent').length);
    expect(events.filter((event) => event.event_type === 'tool_call_started')).toEqual([]);
    expect(events.at(-1)?.payload).toMatchObject({ stop_reason: 'MAX_STEPS' });
    expect(String(events.at(-1)?.payload.message)).toMatch(/^command exited 0; command's output: line 1: not JSON/);
  });
});
