import { parse as parseJunitXml, type TestCase, type TestSuite, type TestSuites } from 'junit2json';

type NestedSuite = TestSuite & { testsuite?: NestedSuite[] };

/** How one test ended, as a JUnit report says. */
export type TestOutcome = 'passed' | 'failed' | 'error' | 'skipped';

/** A JUnit report read as data: each test's outcome by its key, `classname::name`. */
export interface TestReport {
  /** Key (`classname::name`, or `name` when the classname is empty) → outcome; a key reported twice keeps its worst outcome. */
  outcomes: Map<string, TestOutcome>;
  /**
   * Modules whose collection failed, dotted (`tests.test_b`): pytest reports such an error as a
   * test case with an empty classname named by the module, and none of the module's tests.
   */
  collectionErrors: string[];
}

/** Bytes of a report the harness reads at most: a larger one is refused (the file is sandbox-written). */
export const MAX_TEST_REPORT_BYTES = 32 * 1024 * 1024;

/** How bad an outcome is: a test reported more than once keeps its worst. */
export const OUTCOME_RANK: Record<TestOutcome, number> = { passed: 0, skipped: 1, failed: 2, error: 3 };

/** Why a report could not be read as one: the caller's TESTS_NOT_REPORTED names it. */
export class UnreadableTestReport {
  constructor(readonly reason: string) {}
}

/** The key of a test case in a TestReport. */
export function testCaseKey(classname: string, name: string): string {
  return classname === '' ? name : `${classname}::${name}`;
}

function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function outcomeOf(testCase: TestCase): TestOutcome {
  if ((testCase.error?.length ?? 0) > 0) return 'error';
  if ((testCase.failure?.length ?? 0) > 0) return 'failed';
  if ((testCase.skipped?.length ?? 0) > 0) return 'skipped';
  return 'passed';
}

/**
 * Reads a JUnit XML report (pytest's, or any runner's) with junit2json, on xml2js and sax:
 * sax does not read a DTD's entity declarations (a declared entity is an error in its strict
 * mode, so neither entity expansion nor an external fetch can happen), and the text is capped at
 * MAX_TEST_REPORT_BYTES before it is parsed. Returns an UnreadableTestReport for an empty,
 * unparsable or test-less report: never a pass.
 */
export async function parseJunitReport(xml: string): Promise<TestReport | UnreadableTestReport> {
  if (Buffer.byteLength(xml, 'utf8') > MAX_TEST_REPORT_BYTES) return new UnreadableTestReport(`the report is over ${MAX_TEST_REPORT_BYTES} bytes`);
  if (xml.trim() === '') return new UnreadableTestReport('the report is empty');
  let root: TestSuites | TestSuite | undefined;
  try {
    // xml2js's defaults, without junit2json's number parsing: a test named `1` stays a string.
    root = (await parseJunitXml(xml, {})) ?? undefined;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return new UnreadableTestReport(`the report is not valid XML (${first.slice(0, 120)})`);
  }
  if (root === undefined || root === null || typeof root !== 'object') return new UnreadableTestReport('the report has no <testsuites> or <testsuite> element');
  const report: TestReport = { outcomes: new Map(), collectionErrors: [] };
  // junit2json's TestSuite type leaves out nested <testsuite> elements, which other runners write (and it keeps).
  const pending: NestedSuite[] = [root as NestedSuite];
  let cases = 0;
  while (pending.length > 0) {
    const suite = pending.pop() as NestedSuite;
    pending.push(...(suite.testsuite ?? []));
    for (const testCase of suite.testcase ?? []) {
      const name = textOf(testCase.name);
      const classname = textOf(testCase.classname);
      if (name === '') continue;
      cases += 1;
      const outcome = outcomeOf(testCase);
      if (classname === '' && outcome === 'error' && (testCase.error ?? []).some((error) => error.message === 'collection failure')) report.collectionErrors.push(name);
      const key = testCaseKey(classname, name);
      const previous = report.outcomes.get(key);
      if (previous === undefined || OUTCOME_RANK[outcome] > OUTCOME_RANK[previous]) report.outcomes.set(key, outcome);
    }
  }
  if (cases === 0) return new UnreadableTestReport('the report names no test case');
  return report;
}
