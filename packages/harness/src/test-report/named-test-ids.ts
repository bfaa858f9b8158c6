import { OUTCOME_RANK, testCaseKey, type TestOutcome, type TestReport } from './junit-report.js';

/** Where the named tests of a task are looked up: pytest node ids, or a JUnit report's own `classname::name`. */
export type TestIdStyle = 'pytest' | 'junit';

/**
 * The key a pytest node id has in pytest's JUnit report, as pytest's `mangle_test_address`
 * builds it: the file path dotted without `.py`, the classes after it, and the test's name with
 * its parameters (`tests/test_a.py::TestK::test_m[1]` → `tests.test_a.TestK::test_m[1]`).
 */
export function pytestReportKey(nodeId: string): string {
  const bracket = nodeId.indexOf('[');
  const path = bracket === -1 ? nodeId : nodeId.slice(0, bracket);
  const parameters = bracket === -1 ? '' : nodeId.slice(bracket);
  const names = path.split('::');
  names[0] = (names[0] as string).replaceAll('/', '.').replace(/\.py$/, '');
  const name = `${names.pop() as string}${parameters}`;
  return testCaseKey(names.join('.'), name);
}

/** The key of a named test in a report of the given style. */
export function reportKeyOf(testId: string, style: TestIdStyle): string {
  return style === 'pytest' ? pytestReportKey(testId) : testId;
}

/** What the report says of one named test; `missing` when it does not name it. */
export type NamedTestOutcome = TestOutcome | 'missing';

/**
 * The outcome of a named test. Matched exactly; an id without parameters that names a
 * parametrized test (SWE-bench's cut-short ids, widened by the import) stands for every case of
 * it, and its outcome is the worst of theirs. A test of a module whose collection failed errored.
 */
export function namedTestOutcome(report: TestReport, key: string): NamedTestOutcome {
  const exact = report.outcomes.get(key);
  if (exact !== undefined) return exact;
  if (!key.endsWith(']')) {
    let worst: TestOutcome | undefined;
    for (const [caseKey, outcome] of report.outcomes) {
      if (caseKey.startsWith(`${key}[`) && (worst === undefined || OUTCOME_RANK[outcome] > OUTCOME_RANK[worst])) worst = outcome;
    }
    if (worst !== undefined) return worst;
  }
  const classname = key.includes('::') ? key.slice(0, key.indexOf('::')) : '';
  if (report.collectionErrors.some((module) => classname === module || classname.startsWith(`${module}.`))) return 'error';
  return 'missing';
}
