import { describe, expect, it } from 'vitest';
import { checkBaselineExpectations } from './check-baseline-expectations.js';

const stdout = `..F.F.                                                                   [100%]
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_median_of_unsorted_values - assert 3 == 2
FAILED tests/test_stats.py::test_median_of_even_length_is_mean_of_middle_values - assert 3 == 2.5
2 failed, 4 passed in 0.04s
`;
const output = { exitCode: 1, stdout, stderr: 'DeprecationWarning: something\n' };
const fields = (mismatches: Array<{ field: string }>): string[] => mismatches.map((mismatch) => mismatch.field);

describe('checkBaselineExpectations', () => {
  it('finds nothing to report without a validation block or with all expectations met', () => {
    expect(checkBaselineExpectations(undefined, output)).toEqual([]);
    expect(
      checkBaselineExpectations(
        {
          expected_exit_codes: [1],
          expected_failure_regex: '2 failed',
          expected_stdout_regex: '^FAILED tests/test_stats',
          expected_stderr_regex: 'DeprecationWarning',
          disallowed_failure_regex: '(ModuleNotFoundError|ImportError|SyntaxError|errors? during collection)',
          expected_failing_tests: ['tests/test_stats.py::test_median_of_unsorted_values'],
        },
        output,
      ),
    ).toEqual([]);
  });

  it('expected_exit_codes: the exit code must be one of them', () => {
    const [mismatch] = checkBaselineExpectations({ expected_exit_codes: [2, 3] }, output);
    expect(mismatch).toEqual({ field: 'validation.expected_exit_codes', message: 'exit code 1 is not one of the expected [2, 3]' });
  });

  it('expected_failure_regex: must match stdout and stderr together', () => {
    expect(checkBaselineExpectations({ expected_failure_regex: 'Deprecation' }, output)).toEqual([]);
    expect(fields(checkBaselineExpectations({ expected_failure_regex: 'TypeError' }, output))).toEqual(['validation.expected_failure_regex']);
  });

  it('expected_stdout_regex and expected_stderr_regex look at their own stream only', () => {
    expect(fields(checkBaselineExpectations({ expected_stdout_regex: 'DeprecationWarning' }, output))).toEqual(['validation.expected_stdout_regex']);
    expect(fields(checkBaselineExpectations({ expected_stderr_regex: '2 failed' }, output))).toEqual(['validation.expected_stderr_regex']);
    expect(checkBaselineExpectations({ expected_stdout_regex: '2 failed', expected_stderr_regex: 'Deprecation' }, output)).toEqual([]);
  });

  it('matches ^ and $ at each line, as Python re.MULTILINE', () => {
    expect(checkBaselineExpectations({ expected_stdout_regex: '^2 failed, 4 passed in [0-9.]+s$' }, output)).toEqual([]);
  });

  it('disallowed_failure_regex: must not match, and the message quotes the line', () => {
    const withImportError = { ...output, stdout: `${stdout}E   ModuleNotFoundError: No module named 'toy_calc'\n` };
    const [mismatch] = checkBaselineExpectations({ disallowed_failure_regex: 'ModuleNotFoundError' }, withImportError);
    expect(mismatch?.field).toBe('validation.disallowed_failure_regex');
    expect(mismatch?.message).toContain("E   ModuleNotFoundError: No module named 'toy_calc'");
    expect(checkBaselineExpectations({ disallowed_failure_regex: 'ModuleNotFoundError' }, output)).toEqual([]);
  });

  it('quotes at most 200 characters of a sandbox-written line, escaped', () => {
    const flood = { ...output, stdout: `ModuleNotFoundError ${'a'.repeat(4_000_000)}\u001b[2J\n` };
    const [mismatch] = checkBaselineExpectations({ disallowed_failure_regex: 'ModuleNotFoundError' }, flood);
    expect(mismatch?.message).toBe(`/ModuleNotFoundError/ matches the output: "ModuleNotFoundError ${'a'.repeat(180)}… (3,999,824 more characters)"`);
  });

  it('expected_failing_tests: each must be among the failing tests pytest reported', () => {
    const [mismatch] = checkBaselineExpectations(
      { expected_failing_tests: ['tests/test_stats.py::test_median_of_unsorted_values', 'tests/test_stats.py::test_mean'] },
      output,
    );
    expect(mismatch?.field).toBe('validation.expected_failing_tests');
    expect(mismatch?.message).toContain('tests/test_stats.py::test_mean did not fail');
    expect(mismatch?.message).toContain('test_median_of_even_length_is_mean_of_middle_values');
  });

  it('expected_failing_tests: a substring of a failing id does not count', () => {
    expect(fields(checkBaselineExpectations({ expected_failing_tests: ['tests/test_stats.py::test_median'] }, output))).toEqual(['validation.expected_failing_tests']);
  });

  it('expected_failing_tests: accepts the same id under a longer path', () => {
    const nested = { ...output, stdout: 'FAILED pkg/tests/test_stats.py::test_mean - x\n' };
    expect(checkBaselineExpectations({ expected_failing_tests: ['tests/test_stats.py::test_mean'] }, nested)).toEqual([]);
  });

  it('reports every missed expectation, not only the first', () => {
    expect(fields(checkBaselineExpectations({ expected_exit_codes: [2], expected_failure_regex: 'nope', disallowed_failure_regex: 'failed' }, output))).toEqual([
      'validation.expected_exit_codes',
      'validation.expected_failure_regex',
      'validation.disallowed_failure_regex',
    ]);
  });
});
