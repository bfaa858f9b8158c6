import { describe, expect, it } from 'vitest';
import { checkBaselineReport, judgeNamedTests } from './judge-named-tests.js';
import type { TestOutcome, TestReport } from './junit-report.js';
import { namedTestOutcome, pytestReportKey } from './named-test-ids.js';
import { isPytestCommand } from './test-report-source.js';

function report(outcomes: Record<string, TestOutcome>, collectionErrors: string[] = []): TestReport {
  return { outcomes: new Map(Object.entries(outcomes)), collectionErrors };
}

const F2P = ['tests/test_stats.py::test_median[1 2]', 'tests/test_stats.py::TestK::test_even'];
const fixed = report({ 'tests.test_stats::test_median[1 2]': 'passed', 'tests.test_stats.TestK::test_even': 'passed', 'tests.test_stats::test_mean': 'passed' });

describe('pytestReportKey', () => {
  it("builds pytest's JUnit classname::name from a node id, parameters untouched", () => {
    expect(pytestReportKey('tests/test_a.py::test_ok')).toBe('tests.test_a::test_ok');
    expect(pytestReportKey('tests/test_a.py::TestK::test_m')).toBe('tests.test_a.TestK::test_m');
    expect(pytestReportKey("tests/test_a.py::test_p[it's [x]/y.py::z]")).toBe("tests.test_a::test_p[it's [x]/y.py::z]");
  });
});

describe('namedTestOutcome', () => {
  it('matches exactly: a prefix or a longer id is another test', () => {
    expect(namedTestOutcome(fixed, 'tests.test_stats::test_mea')).toBe('missing');
    expect(namedTestOutcome(fixed, 'tests.test_stats::test_median[1')).toBe('missing');
  });

  it('a widened id (no parameters) stands for every case of its test, worst first', () => {
    const cases = report({ 'm::t[a b]': 'passed', 'm::t[c]': 'skipped', 'm::u[1]': 'passed' });
    expect(namedTestOutcome(cases, 'm::t')).toBe('skipped');
    expect(namedTestOutcome(cases, 'm::u')).toBe('passed');
  });

  it("a test of a module whose collection failed errored", () => {
    expect(namedTestOutcome(report({}, ['tests.test_b']), 'tests.test_b.TestK::test_m')).toBe('error');
    expect(namedTestOutcome(report({}, ['tests.test_b']), 'tests.test_bc::test_m')).toBe('missing');
  });
});

describe('judgeNamedTests', () => {
  it('passes when every FAIL_TO_PASS test passed and no other test failed', () => {
    expect(judgeNamedTests(fixed, { style: 'pytest', failToPass: F2P }).failureReason).toBeNull();
  });

  it('fails a FAIL_TO_PASS test skipped, xfailed or errored (TESTS_FAILED) and one missing (TESTS_NOT_REPORTED)', () => {
    for (const outcome of ['skipped', 'failed', 'error'] as const) {
      const run = report({ 'tests.test_stats::test_median[1 2]': outcome, 'tests.test_stats.TestK::test_even': 'passed' });
      expect(judgeNamedTests(run, { style: 'pytest', failToPass: F2P })).toMatchObject({ failureReason: 'TESTS_FAILED', message: expect.stringContaining(`(${outcome})`) });
    }
    const deselected = report({ 'tests.test_stats.TestK::test_even': 'passed' });
    expect(judgeNamedTests(deselected, { style: 'pytest', failToPass: F2P })).toMatchObject({ failureReason: 'TESTS_NOT_REPORTED', message: expect.stringContaining('test_median[1 2]') });
  });

  it('PASS_TO_PASS: named ids, the baseline’s passing keys, or (neither) no reported test may fail', () => {
    const broke = report({ ...Object.fromEntries(fixed.outcomes), 'tests.test_stats::test_mean': 'failed' });
    expect(judgeNamedTests(broke, { style: 'pytest', failToPass: F2P }).failureReason).toBe('TESTS_FAILED');
    expect(judgeNamedTests(broke, { style: 'pytest', failToPass: F2P, passToPass: { ids: ['tests/test_stats.py::test_mean'] } }).failureReason).toBe('TESTS_FAILED');
    expect(judgeNamedTests(broke, { style: 'pytest', failToPass: F2P, passToPass: { keys: [] } }).failureReason).toBeNull();
    expect(judgeNamedTests(broke, { style: 'pytest', failToPass: F2P, passToPass: { keys: ['tests.test_stats::test_mean'] } }).failureReason).toBe('TESTS_FAILED');
    expect(judgeNamedTests(fixed, { style: 'pytest', failToPass: F2P, passToPass: { ids: ['tests/test_stats.py::test_gone'] } }).failureReason).toBe('TESTS_NOT_REPORTED');
  });

  it('junit style: ids are the report’s own classname::name', () => {
    const run = report({ 'src/add.test.js::adds': 'passed' });
    expect(judgeNamedTests(run, { style: 'junit', failToPass: ['src/add.test.js::adds'] }).failureReason).toBeNull();
    expect(judgeNamedTests(run, { style: 'junit', failToPass: ['adds'] }).failureReason).toBe('TESTS_NOT_REPORTED');
  });
});

describe('checkBaselineReport', () => {
  const baseline = report({ 'tests.test_stats::test_median[1 2]': 'failed', 'tests.test_stats::test_mean': 'passed' }, ['tests.test_new']);

  it('accepts FAIL_TO_PASS tests that failed or whose module did not collect, and keeps the passing keys', () => {
    const check = checkBaselineReport(baseline, { style: 'pytest', failToPass: ['tests/test_stats.py::test_median[1 2]', 'tests/test_new.py::test_added'], passToPass: ['tests/test_stats.py::test_mean'] });
    expect(check).toMatchObject({ failureReason: null, passingKeys: ['tests.test_stats::test_mean'] });
  });

  it('a FAIL_TO_PASS test that passed, or a PASS_TO_PASS test that failed, is a BASELINE_MISMATCH naming its field', () => {
    expect(checkBaselineReport(baseline, { style: 'pytest', failToPass: ['tests/test_stats.py::test_mean'] })).toMatchObject({ failureReason: 'BASELINE_MISMATCH', field: 'validation.expected_failing_tests' });
    expect(checkBaselineReport(baseline, { style: 'pytest', failToPass: [], passToPass: ['tests/test_stats.py::test_median[1 2]'] })).toMatchObject({ failureReason: 'BASELINE_MISMATCH', field: 'evaluation.pass_to_pass' });
  });

  it('a named test the report lacks is TESTS_NOT_REPORTED', () => {
    expect(checkBaselineReport(baseline, { style: 'pytest', failToPass: ['tests/test_stats.py::test_other'] }).failureReason).toBe('TESTS_NOT_REPORTED');
  });
});

describe('isPytestCommand', () => {
  it('finds pytest as a word of the command', () => {
    for (const command of ['pytest -q', 'PYTHONPATH=x python3 -m pytest -q', 'cd sub && py.test', '/usr/bin/pytest tests']) expect(isPytestCommand(command), command).toBe(true);
    for (const command of ['python3 tests/runtests.py', 'npm test', 'pytest-watch', 'node mypytest.js']) expect(isPytestCommand(command), command).toBe(false);
  });
});
