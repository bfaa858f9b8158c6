import { describe, expect, it } from 'vitest';
import { cassetteFixture, streamFixture } from '../../test/fixture-streams.js';
import type { ToolStep } from '../agent-trajectory.js';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { mergeGatewayTurns } from '../gateway/merge-gateway-turns.js';
import { parseCodexJson } from './parse-codex-json.js';

const tools = (steps: readonly unknown[]): ToolStep[] => steps.filter((step): step is ToolStep => (step as ToolStep).kind === 'tool');

describe('parseCodexJson on a real codex exec --json stream (0.171.0)', () => {
  const trajectory = parseCodexJson(streamFixture('codex'), { workspace: '/workspace' });

  it('reads the commands with their exit codes and output, and the file it changed', () => {
    expect(trajectory.sessionId).toBe('01a21e29-7cbf-79d1-ae8d-efcdce60e97c');
    expect(tools(trajectory.steps).map((step) => [step.tool, step.command ?? null, step.result?.exitCode ?? null, step.filesChanged ?? null])).toEqual([
      ['run', "/bin/bash -lc 'cat calc.py'", 0, null],
      ['apply_patch', null, null, ['calc.py']],
      ['run', "/bin/bash -lc 'ls missing-file'", 2, null],
    ]);
    expect(tools(trajectory.steps)[0]!.result?.output).toBe('def add(a, b):\n    return a - b\n');
    expect(tools(trajectory.steps)[2]!.result).toMatchObject({ isError: true, output: expect.stringContaining('No such file or directory') });
  });

  it('reads its messages and the turn totals, and keeps its notices apart from failures', () => {
    expect(trajectory.finalText).toBe('Fixed the bug in calc.py.');
    expect(trajectory.usage).toEqual({ inputTokens: 12734, outputTokens: 38, cachedTokens: 0 });
    expect(trajectory.isError).toBe(false);
    expect(trajectory.errors[0]).toContain('Model metadata for `fake-model` not found');
  });

  it('takes its model turns and their usage from the gateway, each before the tool calls it asked for', () => {
    const merged = mergeGatewayTurns(trajectory, cassetteFixture('codex'));
    expect(merged.steps.map((step) => (step.kind === 'model_turn' ? `turn ${step.usage?.inputTokens}/${step.usage?.outputTokens}` : step.agentTool))).toEqual([
      'turn 3131/9',
      'command_execution',
      'turn 3164/21',
      'file_change',
      'turn 3205/3',
      'command_execution',
      'turn 3234/5',
    ]);
    const turns = merged.steps.filter((step) => step.kind === 'model_turn');
    expect(turns.map((turn) => turn.text)).toEqual(['Let me look at the code.', '', '', 'Fixed the bug in calc.py.']);
    // The gateway's per-request counts add up to the agent's own total.
    expect(turns.reduce((sum, turn) => sum + (turn.usage?.inputTokens ?? 0), 0)).toBe(12734);
  });
});

describe('parseCodexJson on malformed streams', () => {
  it('names the line of a broken event', () => {
    expect(() => parseCodexJson('{"type":"turn.started"}\n{"type": "item.completed", ', { source: 'codex.jsonl' })).toThrow(/^codex\.jsonl: line 2: not JSON/);
  });

  it('names the field of an event of the wrong shape', () => {
    expect(() => parseCodexJson('{"type":"item.completed","item":{"id":"i","type":"command_execution","command":42}}', { source: 'codex.jsonl' })).toThrow('codex.jsonl: line 1: command: expected a string, found number');
    expect(() => parseCodexJson('{"type":"item.completed","item":{"id":"i","type":"command_execution","command":"ls","exit_code":"0"}}', { source: 'codex.jsonl' })).toThrow(/line 1: item\.exit_code: expected a whole number or null/);
    expect(() => parseCodexJson('[1]', { source: 'codex.jsonl' })).toThrow('codex.jsonl: line 1: expected a JSON object, found an array');
    expect(() => parseCodexJson('{"type":"item.started"}', { source: 'codex.jsonl' })).toThrow('codex.jsonl: line 1: item: expected an object, found nothing');
  });

  it('refuses a line past the cap without parsing it, and keeps paths as labels', () => {
    const error = (() => {
      try {
        parseCodexJson(`{"type":"x","pad":"${'a'.repeat(8 * 1024 * 1024)}"}`, { source: 'codex.jsonl' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(TrajectoryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/line 1: the line has \d+ characters, more than the 8388608 read/);
    const sneaky = parseCodexJson('{"type":"item.completed","item":{"id":"f","type":"file_change","status":"completed","changes":[{"path":"/workspace/../../etc/passwd\\u001b[2J","kind":"update"}]}}', { workspace: '/workspace' });
    expect((sneaky.steps[0] as ToolStep).filesChanged).toEqual(['../../etc/passwd?[2J']);
  });

  it('marks a failed turn as the agent failing', () => {
    const failed = parseCodexJson('{"type":"turn.failed","error":{"message":"stream disconnected"}}');
    expect(failed).toMatchObject({ isError: true, errors: ['stream disconnected'] });
  });
});
