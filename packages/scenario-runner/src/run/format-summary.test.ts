import { describe, expect, it } from 'vitest';
import { formatRunSummary } from './format-summary.js';
import type { ScenarioRunResult } from './scenario-result.js';

const usage = { calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 };

/** A failed run whose agent printed a flood and whose evaluation quotes it. */
function floodedRun(flood: string): ScenarioRunResult {
  return {
    status: 'failed',
    scenario: { name: 'flood' },
    parameters: { seed: 1 },
    judgment: { strategy: 'all_pass', reason: 'an evaluation failed' },
    steps: [{ index: 0, name: 'run[0]', kind: 'input', status: 'errored', response: flood, stdout: flood, stderr: '', exit_code: 0, duration_ms: 1, error: `the agent failed: ${flood}` }],
    evaluations: [{ step: 0, phase: 'step', type: 'contains', success: false, message: `expected "ok" in: ${flood}`, weight: 1, negated: false }],
    errors: [{ stage: 'run[0]', message: flood }],
    warnings: [],
    metrics: { execution_time_ms: 1, llm_calls: 0, total_tokens: 0, per_role: { agent: usage, simulator: usage, judge: usage }, service_calls: 0, mocked_calls: 0, conversation_turns: 0 },
  } as unknown as ScenarioRunResult;
}

describe('formatRunSummary', () => {
  it('keeps what the agent printed to one escaped line per entry, whatever its size', () => {
    const flood = `${'a'.repeat(5_000_000)}\n\u001b[2Jafter`;
    const summary = formatRunSummary(floodedRun(flood));
    const lines = summary.split('\n');
    expect(summary).not.toContain('\u001b');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(500);
    expect(lines).toContain(`    | Agent: ${'a'.repeat(200)}… (${(flood.length - 200).toLocaleString('en-US')} more characters)`);
  });

  it('shows the reply whole with --verbose', () => {
    const summary = formatRunSummary(floodedRun('line one\nline two'), { isVerbose: true });
    expect(summary).toContain('    | Agent: line one\n    | line two');
  });
});
