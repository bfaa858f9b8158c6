import { describe, expect, it } from 'vitest';
import { cassetteFixture, qwenJsonArrayFixture, streamFixture } from '../../test/fixture-streams.js';
import type { ModelTurnStep, ToolStep } from '../agent-trajectory.js';
import { mergeGatewayTurns } from '../gateway/merge-gateway-turns.js';
import { parseQwenJson } from './parse-qwen-json.js';

const stream = streamFixture('qwen');

describe('parseQwenJson on a real qwen -o stream-json stream (0.24.4)', () => {
  const trajectory = parseQwenJson(stream, { workspace: '/workspace' });
  const tools = trajectory.steps.filter((step): step is ToolStep => step.kind === 'tool');
  const turns = trajectory.steps.filter((step): step is ModelTurnStep => step.kind === 'model_turn');

  it('reads commands with exit codes, the file read and the file written', () => {
    expect(tools.map((step) => [step.agentTool, step.tool, step.command ?? null, step.result?.exitCode ?? null, step.filesChanged ?? null])).toEqual([
      ['run_shell_command', 'run', 'cat calc.py', 0, null],
      ['read_file', 'read_file', null, null, null],
      ['write_file', 'apply_patch', null, null, ['calc.py']],
      ['run_shell_command', 'run', 'ls missing-file', 2, null],
    ]);
    expect(tools[3]!.result?.output).toContain('Exit Code: 2');
  });

  it('joins a text line and the tool call line of one answer into one turn with its usage', () => {
    expect(turns.map((turn) => [turn.text, turn.usage?.inputTokens, turn.usage?.outputTokens])).toEqual([
      ['Let me look at the code.', 5001, 10],
      ['', 5035, 2],
      ['', 5044, 8],
      ['', 5056, 5],
      ['Fixed the bug in calc.py.', 5087, 5],
    ]);
    expect(trajectory).toMatchObject({ finalText: 'Fixed the bug in calc.py.', isError: false, usage: { inputTokens: 25223, outputTokens: 30 } });
    // The gateway's count is the same here; merged, nothing moves.
    const merged = mergeGatewayTurns(trajectory, cassetteFixture('qwen'));
    expect(merged.steps.map((step) => step.kind)).toEqual(trajectory.steps.map((step) => step.kind));
    expect(merged.steps.filter((step): step is ModelTurnStep => step.kind === 'model_turn').map((turn) => turn.usage?.inputTokens)).toEqual([5001, 5035, 5044, 5056, 5087]);
  });

  it('reads a real -o json output, the same messages as one JSON array, to the same steps', () => {
    const fromArray = parseQwenJson(qwenJsonArrayFixture(), { workspace: '/workspace' });
    const shape = (steps: typeof trajectory.steps) => steps.map((step) => (step.kind === 'model_turn' ? ['turn', step.text, step.usage] : ['tool', step.agentTool, step.command, step.result?.exitCode, step.filesChanged]));
    expect(shape(fromArray.steps)).toEqual(shape(trajectory.steps));
    expect(fromArray).toMatchObject({ format: 'qwen-json', finalText: 'Fixed the bug in calc.py.', isError: false });
  });
});

describe('parseQwenJson on malformed output', () => {
  it('names the element or line', () => {
    expect(() => parseQwenJson('[{"type":"system"}, 3]', { source: 'qwen.json' })).toThrow('qwen.json: line 2: expected a JSON object');
    expect(() => parseQwenJson('[{"type":"system"}', { source: 'qwen.json' })).toThrow(/^qwen\.json: not JSON/);
    expect(() => parseQwenJson('{"type":"user","message":{}}\n{"type":7}', { source: 'qwen.jsonl' })).toThrow('qwen.jsonl: line 2: type: expected a string, found number');
  });
});
