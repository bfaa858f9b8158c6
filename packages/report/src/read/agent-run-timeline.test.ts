import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { ReadProblem } from '../model/report-model.js';
import { readAgentRunTimeline } from './agent-run-timeline.js';
import { DEFAULT_PREVIEW_LIMITS } from './preview-limits.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const temporary = useTemporaryDirectory({ prefix: 'ab-timeline-' });

it("shows an installed agent's answers and command outputs from its events, where our agent's come from its transcript", async () => {
  const base = { timestamp: '2026-11-27T18:00:00.000Z', run_id: 'r' };
  const events = [
    { ...base, event_type: 'llm_request_started', step: 1, payload: { model: 'fake-model', request_id: 'turn-1' } },
    { ...base, event_type: 'llm_request_finished', step: 1, payload: { model: 'fake-model', request_id: 'turn-1', input_tokens: 10, output_tokens: 2, text: 'Let me look at the code.' } },
    { ...base, event_type: 'tool_call_started', step: 1, payload: { request_id: 'call_1', tool: 'run', params: { command: 'ls missing-file' }, agent_tool: 'Bash' } },
    { ...base, event_type: 'tool_call_finished', step: 1, payload: { request_id: 'call_1', tool: 'run', status: 'success', exit_code: 2, output: 'ls: cannot access' } },
  ];
  const file = path.join(temporary.path, 'events.jsonl');
  await writeFile(file, events.map((event) => JSON.stringify(event)).join('\n') + '\n');
  const problems: ReadProblem[] = [];
  const timeline = await readAgentRunTimeline(file, { runFolder: temporary.path, limits: DEFAULT_PREVIEW_LIMITS, problems });
  expect(problems).toEqual([]);
  expect(timeline?.entries.map((entry) => [entry.title, entry.output?.text])).toEqual([
    ['LLM fake-model, 10 in / 2 out tokens', 'Let me look at the code.'],
    ['run (exit 2)', 'ls: cannot access'],
  ]);
});
