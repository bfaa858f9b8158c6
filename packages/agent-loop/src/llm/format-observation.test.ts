import type { ToolResult } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import type { Observation, ToolHistoryEntry } from '../contract/agent.js';
import { formatObservation, formatToolResult, headAndTail } from './format-observation.js';

function entry(step: number, tool: ToolResult['tool'], data: Record<string, unknown>, status: 'success' | 'error' = 'success'): ToolHistoryEntry {
  const now = '2025-01-01T00:00:00.000Z';
  const result: ToolResult = { request_id: `r${step}`, tool, status, started_at: now, ended_at: now, duration_sec: 0, data };
  if (status === 'error') result.error = { kind: 'file_not_found', message: 'no such file: x.py' };
  return { step, request: { tool, params: { path: 'x.py' }, request_id: `r${step}`, requested_at: now }, result };
}

const base: Observation = {
  step: 3,
  task: { id: 'toy', suite: 'custom-dev', testCommand: 'pytest -q', workdir: '/workspace' },
  history: [],
  lastResults: [],
  patches: [],
  budgets: { maxSteps: 10, stepsUsed: 2, stepsRemaining: 8, maxTimeSec: 600, elapsedSec: 12.5, timeRemainingSec: 587.5, inputTokens: 100, outputTokens: 20, maxTokens: 1000 },
};

describe('formatObservation', () => {
  it('shows the task, budgets, the tail of the last test output, patches and recent calls', () => {
    const history = [entry(1, 'read_file', { content: 'def f():\n    return 1\n' }), entry(2, 'read_file', {}, 'error')];
    const text = formatObservation({
      ...base,
      history,
      lastResults: [history[1] as ToolHistoryEntry],
      patches: [{ step: 1, filesChanged: ['src/a.py'] }],
      lastTestRun: { step: 0, command: 'pytest -q', exitCode: 1, passed: false, timedOut: false, output: `${'x'.repeat(10_000)}\nFAILED test_a`, durationMs: 5, trigger: 'initial' },
    });
    expect(text).toContain('Test command (run automatically after each patch): pytest -q');
    expect(text).toContain('step 3 of 10 (8 tool calls left); 587 s of 600 s left; 120 of 1000 tokens used');
    expect(text).toContain('# Last test run (step 0, initial): exit 1, failed');
    expect(text).toMatch(/earlier characters cut.*\nx+\nFAILED test_a/s);
    expect(text).toContain('- step 1: src/a.py');
    expect(text).toContain('## step 1: read_file {"path":"x.py"} → success\ndef f():');
    expect(text).toContain('## step 2: read_file {"path":"x.py"} → error\nerror (file_not_found): no such file: x.py');
  });

  it('keeps only the most recent calls', () => {
    const history = Array.from({ length: 12 }, (_unused, index) => entry(index + 1, 'list_files', { files: [`f${index}.py`] }));
    const text = formatObservation({ ...base, history }, { format: { historyWindow: 3 } });
    expect(text).toContain('# Recent tool calls (3 of 12, oldest first)');
    expect(text).not.toContain('## step 9:');
    expect(text).toContain('## step 10: list_files');
    expect(text).toContain('files (1):\nf11.py');
  });
});

describe('formatToolResult and headAndTail', () => {
  it('formats run results with exit code and streams', () => {
    const now = '2025-01-01T00:00:00.000Z';
    const text = formatToolResult({ request_id: 'r', tool: 'run', status: 'success', started_at: now, ended_at: now, duration_sec: 0, exit_code: 2, data: { stdout: 'out', stderr: 'err', timed_out: false } });
    expect(text).toBe('exit code: 2\nstdout:\nout\nstderr:\nerr\n{"timed_out":false}');
  });

  it('keeps the head and the tail of long text', () => {
    expect(headAndTail('a'.repeat(50) + 'b'.repeat(50), 20)).toBe(`${'a'.repeat(8)}\n…[80 characters cut]…\n${'b'.repeat(12)}`);
  });
});

describe('formatObservation with an issue text', () => {
  it('shows the problem statement under # Issue, and nothing when there is none', () => {
    const base = {
      step: 1,
      task: { id: 't', suite: 's', testCommand: 'pytest -q', workdir: '/workspace' },
      history: [],
      lastResults: [],
      patches: [],
      budgets: { maxSteps: 10, stepsRemaining: 10, maxTimeSec: 60, timeRemainingSec: 60, inputTokens: 0, outputTokens: 0 },
    } as unknown as Observation;
    expect(formatObservation(base)).not.toContain('# Issue');
    const withIssue = { ...base, task: { ...base.task, problemStatement: 'median() is wrong for even lengths' } } as Observation;
    expect(formatObservation(withIssue)).toMatch(/# Issue\nmedian\(\) is wrong for even lengths/);
  });
});
