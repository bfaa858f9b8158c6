import { describe, expect, it } from 'vitest';
import { describeTaskValidity, taskValidityVerdict, type ValidityCounts } from './task-validity-verdict.js';

const counts = (overrides: Partial<ValidityCounts>): ValidityCounts => ({ runs: 3, hasOracle: true, oraclePasses: 3, baselineFailures: 3, erroredRuns: 0, ...overrides });

describe('taskValidityVerdict', () => {
  it('is valid only when the baseline fails and the oracle passes every time', () => {
    expect(taskValidityVerdict(counts({}))).toBe('valid');
  });

  it('flags an oracle that passes sometimes or never', () => {
    expect(taskValidityVerdict(counts({ oraclePasses: 2 }))).toBe('oracle_flaky');
    expect(taskValidityVerdict(counts({ oraclePasses: 0 }))).toBe('oracle_fails');
  });

  it('flags a reference patch that did not apply apart from one that applied and failed', () => {
    expect(taskValidityVerdict(counts({ oraclePasses: 0, oracleNotApplied: 3 }))).toBe('oracle_does_not_apply');
    // Not applying in one run is named before passing in the others: that run never tried the patch.
    expect(taskValidityVerdict(counts({ oraclePasses: 2, oracleNotApplied: 1 }))).toBe('oracle_does_not_apply');
    const notApplied = counts({ runs: 2, oraclePasses: 0, oracleNotApplied: 2, baselineFailures: 2 });
    expect(describeTaskValidity(taskValidityVerdict(notApplied), notApplied)).toBe(
      "oracle passed 0/2 (did not apply 2/2), baseline failed 2/2: the reference patch does not apply to the task's commit after setup",
    );
  });

  it('flags a baseline that does not fail every time', () => {
    expect(taskValidityVerdict(counts({ baselineFailures: 1 }))).toBe('baseline_flaky');
    expect(taskValidityVerdict(counts({ baselineFailures: 0 }))).toBe('baseline_passes');
    expect(taskValidityVerdict(counts({ baselineFailures: 0, baselineSetupFailures: 2 }))).toBe('setup_failed');
    expect(taskValidityVerdict(counts({ baselineFailures: 0, baselineTimeouts: 1 }))).toBe('baseline_timeout');
    expect(taskValidityVerdict(counts({ baselineFailures: 0, baselineSetupFailures: 1, baselineTimeouts: 1 }))).toBe('setup_failed');
    expect(taskValidityVerdict(counts({ baselineFailures: 1, baselineTimeouts: 1 }))).toBe('baseline_flaky');
  });

  it('names the baseline before the oracle when both are wrong', () => {
    expect(taskValidityVerdict(counts({ baselineFailures: 0, oraclePasses: 0 }))).toBe('baseline_passes');
  });

  it('never calls a task without a reference patch valid', () => {
    expect(taskValidityVerdict(counts({ hasOracle: false, oraclePasses: 0 }))).toBe('no_oracle');
  });

  it('makes no claim when a run could not be judged', () => {
    expect(taskValidityVerdict(counts({ erroredRuns: 1, oraclePasses: 2 }))).toBe('errored');
  });

  it('is not_checked with no runs', () => {
    expect(taskValidityVerdict(counts({ runs: 0, oraclePasses: 0, baselineFailures: 0 }))).toBe('not_checked');
  });

  it('describes the counts', () => {
    const flaky = counts({ runs: 2, oraclePasses: 1, baselineFailures: 2 });
    expect(describeTaskValidity(taskValidityVerdict(flaky), flaky)).toBe('oracle passed 1/2, baseline failed 2/2: the reference patch passed in some runs only');
  });
});
