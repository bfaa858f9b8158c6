import type { FailureReason } from '@agentbench/schemas';
import { outputExcerpt } from '@agentbench/sandbox';
import type { TestReport } from './junit-report.js';
import { namedTestOutcome, reportKeyOf, type NamedTestOutcome, type TestIdStyle } from './named-test-ids.js';

/** The named tests of a verdict. */
export interface NamedTests {
  style: TestIdStyle;
  /** FAIL_TO_PASS: each must be reported passed. */
  failToPass: readonly string[];
  /**
   * PASS_TO_PASS, as ids (the task's `evaluation.pass_to_pass`) or as report keys (the tests that
   * passed in the baseline's report). Absent (no list, no baseline report): no test the report
   * names may fail or error.
   */
  passToPass?: { ids: readonly string[] } | { keys: readonly string[] };
}

export interface NamedTestsVerdict {
  /** Null: every FAIL_TO_PASS test passed and every PASS_TO_PASS test still passes. */
  failureReason: Extract<FailureReason, 'TESTS_FAILED' | 'TESTS_NOT_REPORTED'> | null;
  message: string;
}

const SHOWN = 5;

function listShort(values: readonly string[]): string {
  const shown = values.slice(0, SHOWN).map((value) => outputExcerpt(value)).join(', ');
  return values.length > SHOWN ? `${shown} and ${values.length - SHOWN} more` : shown;
}

/**
 * The verdict of named tests on a report: a FAIL_TO_PASS test passes only when reported passed
 * (skipped, xfailed, deselected, errored or missing do not count); a PASS_TO_PASS test likewise.
 * A named test the report does not name is TESTS_NOT_REPORTED, which outranks a failing one: the
 * run did not say what it was asked.
 */
export function judgeNamedTests(report: TestReport, tests: NamedTests): NamedTestsVerdict {
  const missing: string[] = [];
  const failing: string[] = [];
  const check = (label: string, key: string): void => {
    const outcome: NamedTestOutcome = namedTestOutcome(report, key);
    if (outcome === 'missing') missing.push(label);
    else if (outcome !== 'passed') failing.push(`${label} (${outcome})`);
  };
  const failToPassKeys = new Set<string>();
  for (const id of tests.failToPass) {
    const key = reportKeyOf(id, tests.style);
    failToPassKeys.add(key);
    check(id, key);
  }
  const passToPass = tests.passToPass;
  if (passToPass === undefined) {
    for (const [key, outcome] of report.outcomes) {
      if (!failToPassKeys.has(key) && (outcome === 'failed' || outcome === 'error')) failing.push(`${key} (${outcome})`);
    }
  } else if ('ids' in passToPass) {
    for (const id of passToPass.ids) check(id, reportKeyOf(id, tests.style));
  } else {
    for (const key of passToPass.keys) if (!failToPassKeys.has(key)) check(key, key);
  }
  if (missing.length > 0) {
    return { failureReason: 'TESTS_NOT_REPORTED', message: `the test report does not name ${missing.length === 1 ? 'the required test' : `${missing.length} required tests`} ${listShort(missing)}` };
  }
  if (failing.length > 0) return { failureReason: 'TESTS_FAILED', message: `${failing.length} named test${failing.length === 1 ? '' : 's'} did not pass: ${listShort(failing)}` };
  const count = tests.failToPass.length;
  return { failureReason: null, message: `the ${count} FAIL_TO_PASS test${count === 1 ? '' : 's'} pass${count === 1 ? 'es' : ''} and no PASS_TO_PASS test fails` };
}

/** What a baseline's report says of the named tests: each FAIL_TO_PASS test must fail, each named PASS_TO_PASS test pass. */
export interface BaselineReportCheck {
  /** TESTS_NOT_REPORTED (a named test is missing), BASELINE_MISMATCH (one did not fail or pass as named), or null. */
  failureReason: Extract<FailureReason, 'TESTS_NOT_REPORTED' | 'BASELINE_MISMATCH'> | null;
  field?: string;
  message: string;
  /** Report keys of the tests that passed: the PASS_TO_PASS of a task that names none. */
  passingKeys: string[];
  /** Report keys of the tests that failed or errored. */
  failingKeys: string[];
}

/** Checks a baseline run's report against the task's named tests. */
export function checkBaselineReport(report: TestReport, tests: { style: TestIdStyle; failToPass: readonly string[]; passToPass?: readonly string[] }): BaselineReportCheck {
  const passingKeys = [...report.outcomes].filter(([, outcome]) => outcome === 'passed').map(([key]) => key);
  const failingKeys = [...report.outcomes].filter(([, outcome]) => outcome === 'failed' || outcome === 'error').map(([key]) => key);
  const missing: string[] = [];
  const notFailing: string[] = [];
  const notPassing: string[] = [];
  for (const id of tests.failToPass) {
    const outcome = namedTestOutcome(report, reportKeyOf(id, tests.style));
    if (outcome === 'missing') missing.push(id);
    else if (outcome !== 'failed' && outcome !== 'error') notFailing.push(`${id} (${outcome})`);
  }
  for (const id of tests.passToPass ?? []) {
    const outcome = namedTestOutcome(report, reportKeyOf(id, tests.style));
    if (outcome === 'missing') missing.push(id);
    else if (outcome !== 'passed') notPassing.push(`${id} (${outcome})`);
  }
  const base = { passingKeys, failingKeys };
  if (missing.length > 0) return { ...base, failureReason: 'TESTS_NOT_REPORTED', message: `the baseline's test report does not name ${listShort(missing)}` };
  if (notFailing.length > 0) {
    return { ...base, failureReason: 'BASELINE_MISMATCH', field: 'validation.expected_failing_tests', message: `${notFailing.length === 1 ? 'test' : 'tests'} ${listShort(notFailing)} did not fail in the report` };
  }
  if (notPassing.length > 0) {
    return { ...base, failureReason: 'BASELINE_MISMATCH', field: 'evaluation.pass_to_pass', message: `${notPassing.length === 1 ? 'test' : 'tests'} ${listShort(notPassing)} did not pass in the report` };
  }
  return { ...base, failureReason: null, message: 'the named tests fail and pass as the task says' };
}
