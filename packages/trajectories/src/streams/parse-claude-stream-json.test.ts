import { describe, expect, it } from 'vitest';
import { cassetteFixture, streamFixture } from '../../test/fixture-streams.js';
import type { ModelTurnStep, ToolStep } from '../agent-trajectory.js';
import { mergeGatewayTurns } from '../gateway/merge-gateway-turns.js';
import { parseClaudeStreamJson } from './parse-claude-stream-json.js';

describe('parseClaudeStreamJson on a real claude -p --output-format stream-json --verbose stream (2.1.332)', () => {
  const trajectory = parseClaudeStreamJson(streamFixture('claude'), { workspace: '/workspace' });
  const tools = trajectory.steps.filter((step): step is ToolStep => step.kind === 'tool');
  const turns = trajectory.steps.filter((step): step is ModelTurnStep => step.kind === 'model_turn');

  it('reads one model turn per answer (an answer split over lines is one turn)', () => {
    expect(trajectory.sessionId).toBe('62bcbc03-f08b-4fd3-8c72-85563f135bb0');
    expect(trajectory.model).toBe('fake-model');
    expect(turns.map((turn) => turn.text)).toEqual(['Let me look at the code.', '', '', 'Fixed the bug in calc.py.']);
    expect(trajectory.steps.map((step) => step.kind)).toEqual(['model_turn', 'tool', 'model_turn', 'tool', 'model_turn', 'tool', 'model_turn']);
  });

  it('reads the Bash commands with exit codes and output, and the file Write changed', () => {
    expect(tools.map((step) => [step.agentTool, step.tool, step.command ?? null, step.result?.exitCode ?? null, step.filesChanged ?? null])).toEqual([
      ['Bash', 'run', 'cat calc.py', 0, null],
      ['Write', 'apply_patch', null, null, ['calc.py']],
      ['Bash', 'run', 'ls missing-file', 2, null],
    ]);
    expect(tools[0]!.result?.output).toBe('def add(a, b):\n    return a - b');
    expect(tools[2]!.result).toMatchObject({ isError: true, output: expect.stringContaining('No such file or directory') });
  });

  it("reads the result's totals and cost; the gateway's final counts replace the stream's start-of-answer ones", () => {
    expect(trajectory).toMatchObject({ finalText: 'Fixed the bug in calc.py.', isError: false, usage: { inputTokens: 10594, outputTokens: 28, costUsd: 0.042936 } });
    // The stream repeats message_start's usage: 1 output token per answer.
    expect(turns.map((turn) => turn.usage?.outputTokens)).toEqual([1, 1, 1, 1]);
    const merged = mergeGatewayTurns(trajectory, cassetteFixture('claude'));
    const mergedTurns = merged.steps.filter((step): step is ModelTurnStep => step.kind === 'model_turn');
    expect(mergedTurns.map((turn) => [turn.text, turn.usage?.inputTokens, turn.usage?.outputTokens])).toEqual([
      ['Let me look at the code.', 2617, 10],
      ['', 2634, 8],
      ['', 2663, 5],
      ['Fixed the bug in calc.py.', 2680, 5],
    ]);
    expect(mergedTurns.reduce((sum, turn) => sum + (turn.usage?.outputTokens ?? 0), 0)).toBe(28);
  });
});

describe('parseClaudeStreamJson on malformed streams', () => {
  it('names the line and the field', () => {
    expect(() => parseClaudeStreamJson('{"type":"assistant","message":{"content":"hi"}}', { source: 'claude.jsonl' })).toThrow('claude.jsonl: line 1: message.content: expected an array of content blocks');
    expect(() => parseClaudeStreamJson('{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"}]}}', { source: 'claude.jsonl' })).toThrow('claude.jsonl: line 1: id: expected a string, found nothing');
    expect(() => parseClaudeStreamJson('{"type":"system"}\nnot json', { source: 'claude.jsonl' })).toThrow(/^claude\.jsonl: line 2: not JSON/);
    expect(() => parseClaudeStreamJson('{"subtype":"init"}', { source: 'claude.jsonl' })).toThrow('claude.jsonl: line 1: type: expected a string, found nothing');
  });

  it('marks an error result as the agent failing, and a refused edit as changing nothing', () => {
    const stream = [
      '{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/workspace/a.py","old_string":"x","new_string":"y"}}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"String not found"}]}}',
      '{"type":"result","subtype":"error_max_turns","is_error":true}',
    ].join('\n');
    const failed = parseClaudeStreamJson(stream, { workspace: '/workspace' });
    expect(failed).toMatchObject({ isError: true, errors: ['error_max_turns'] });
    expect((failed.steps[1] as ToolStep).filesChanged).toBeUndefined();
    expect((failed.steps[1] as ToolStep).result).toEqual({ isError: true, output: 'String not found' });
  });
});
