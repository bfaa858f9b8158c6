import { describe, expect, it } from 'vitest';
import { summarizeAttempts, type AttemptLike } from './summarize-attempts.js';

function attempt(taskId: string, passed: boolean, extra: Partial<AttemptLike> = {}): AttemptLike {
  return {
    task_id: taskId,
    result: { passed, failure_reason: passed ? null : 'TESTS_FAILED' },
    duration_sec: 10,
    ...extra,
  };
}

// Task "a": pass, fail, pass. Task "b": three failures with different reasons.
const records: AttemptLike[] = [
  attempt('a', true, { metrics: { input_tokens: 1000, output_tokens: 200, cost_usd: 0.01, steps: 4 } }),
  attempt('a', false, { metrics: { input_tokens: 3000, output_tokens: 400, cost_usd: 0.03, steps: 8 } }),
  attempt('a', true, { metrics: null, duration_sec: 40 }),
  attempt('b', false, { result: { passed: false, failure_reason: 'TIMEOUT' }, metrics: { input_tokens: 2000, output_tokens: null } }),
  attempt('b', false),
  attempt('b', false, { result: { passed: false, failure_reason: null } }),
];

describe('summarizeAttempts', () => {
  const summary = summarizeAttempts(records);

  it('counts the pass rate with its Wilson interval', () => {
    // 2 of 6; Wilson 95%: p = 1/3, z²/n = 3.841459/6 = 0.640243, denominator 1.640243,
    // center = (0.333333 + 0.320122) / 1.640243 = 0.398390,
    // half = (1.959964 / 1.640243) * sqrt(0.037037 + 0.026678) = 1.194923 * 0.252418 = 0.301620
    expect(summary.passRate.passed).toBe(2);
    expect(summary.passRate.total).toBe(6);
    expect(summary.passRate.rate).toBeCloseTo(1 / 3, 12);
    expect(summary.passRate.interval.lower).toBeCloseTo(0.09677, 4);
    expect(summary.passRate.interval.upper).toBeCloseTo(0.70001, 4);
  });

  it('groups attempts by task and flags tasks whose every repeat passed', () => {
    expect(summary.tasks).toEqual([
      { taskId: 'a', attempts: 3, passes: 2, isEveryAttemptPassed: false },
      { taskId: 'b', attempts: 3, passes: 0, isEveryAttemptPassed: false },
    ]);
    expect(summarizeAttempts([attempt('c', true), attempt('c', true)]).tasks[0]?.isEveryAttemptPassed).toBe(true);
  });

  it('averages pass@k over tasks, with k = 1 and the fewest attempts per task by default', () => {
    // a: pass@1 = 2/3, pass@3 = 1 (only 1 failure < 3); b: pass@1 = 0, pass@3 = 0
    expect(summary.passAtK.map((estimate) => estimate.k)).toEqual([1, 3]);
    expect(summary.passAtK[0]?.value).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(summary.passAtK[1]?.value).toBeCloseTo((1 + 0) / 2, 12);
  });

  it('averages pass^k over tasks', () => {
    // a: pass^1 = 2/3, pass^3 = C(2,3)/C(3,3) = 0; b: 0 and 0
    expect(summary.passHatK[0]?.value).toBeCloseTo(1 / 3, 12);
    expect(summary.passHatK[1]?.value).toBe(0);
  });

  it('leaves out tasks with fewer than k attempts and says how many', () => {
    const estimate = summarizeAttempts([attempt('a', true), attempt('a', false), attempt('b', true)], { k: [2] }).passAtK[0];
    // only task a has 2 attempts: pass@2 = 1 - C(1,2)/C(2,2) = 1
    expect(estimate).toEqual({ k: 2, value: 1, taskCount: 1, skippedTaskCount: 1 });
  });

  it('averages tokens and cost over the attempts that report them', () => {
    // input tokens: 1000, 3000, 2000 over 3 of 6 attempts → 2000
    expect(summary.tokens.input).toEqual({ mean: 2000, sum: 6000, count: 3, attempts: 6 });
    // total tokens need both halves: 1200 and 3400 → 2300 over 2
    expect(summary.tokens.total).toEqual({ mean: 2300, sum: 4600, count: 2, attempts: 6 });
    // cost: 0.01 and 0.03 → 0.02 over 2
    expect(summary.costUsd.count).toBe(2);
    expect(summary.costUsd.mean).toBeCloseTo(0.02, 12);
    // duration: 10 * 5 + 40 = 90 over 6 → 15
    expect(summary.durationSec.mean).toBe(15);
  });

  it('counts failures by taxonomy and the failures that give no reason', () => {
    expect(summary.failuresByReason.TESTS_FAILED).toBe(2);
    expect(summary.failuresByReason.TIMEOUT).toBe(1);
    expect(summary.failuresByReason.SETUP_FAILED).toBe(0);
    expect(summary.unclassifiedFailures).toBe(1);
  });

  it('leaves errored attempts out of the pass rate and pass@k, counts them, and gives the conservative rate', () => {
    const records: AttemptLike[] = [
      attempt('a', true),
      attempt('a', false, { errored: true, result: { passed: false, failure_reason: 'SANDBOX_ERROR' } }),
      attempt('b', false),
      attempt('b', true),
    ];
    const summary = summarizeAttempts(records, { k: [1] });
    expect(summary.attempts).toBe(4);
    expect(summary.errored).toBe(1);
    expect(summary.passRate.rate).toBeCloseTo(2 / 3);
    expect(summary.conservativePassRate.rate).toBeCloseTo(2 / 4);
    // Task a has one counted attempt (a pass): pass@1 of a is 1, of b 0.5.
    expect(summary.passAtK[0]?.value).toBeCloseTo(0.75);
  });

  it('summarizes an empty run without inventing a rate', () => {
    const empty = summarizeAttempts([]);
    expect(empty.attempts).toBe(0);
    expect(empty.passRate.rate).toBeNull();
    expect(empty.passAtK).toEqual([{ k: 1, value: null, taskCount: 0, skippedTaskCount: 0 }]);
    expect(empty.costUsd.mean).toBeNull();
  });

  it('uses the z it is given for the interval', () => {
    const wide = summarizeAttempts(records, { z: 2.5758293035489 }).passRate.interval;
    expect(wide.lower).toBeLessThan(summary.passRate.interval.lower);
    expect(wide.upper).toBeGreaterThan(summary.passRate.interval.upper);
  });

  it('rejects a failure reason outside the taxonomy, naming the record', () => {
    const bad = [attempt('a', true), { result: { passed: false, failure_reason: 'FLAKY' } }] as AttemptLike[];
    expect(() => summarizeAttempts(bad)).toThrow(/records\[1\]\.result\.failure_reason: expected null or one of SETUP_FAILED.*found "FLAKY"/);
  });

  it('rejects a record without result.passed', () => {
    const bad = [{ result: {} }] as AttemptLike[];
    expect(() => summarizeAttempts(bad)).toThrow('records[0].result.passed: expected a boolean, found undefined');
  });

  it('rejects a negative cost, naming the field', () => {
    expect(() => summarizeAttempts([attempt('a', true, { metrics: { cost_usd: -1 } })])).toThrow(
      'records[0].metrics.cost_usd: expected a finite number >= 0',
    );
  });

  it('rejects k = 0', () => {
    expect(() => summarizeAttempts(records, { k: [0] })).toThrow('options.k[0]: expected an integer >= 1, found 0');
  });
});
