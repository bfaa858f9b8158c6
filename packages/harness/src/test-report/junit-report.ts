import { SaxesParser, type SaxesTagPlain } from 'saxes';

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

/** The outcome a child element of <testcase> gives it (other children, such as <system-out>, give none). */
const CHILD_OUTCOME: Record<string, TestOutcome | undefined> = { failure: 'failed', error: 'error', skipped: 'skipped' };

/** One <testcase> being read: its attributes and the worst outcome its children gave so far. */
interface OpenTestCase {
  classname: string;
  name: string;
  outcome: TestOutcome;
  isCollectionFailure: boolean;
}

/** What each open element is to the walk: a suite (its <testcase> children count), the test case being read, or neither. */
type OpenElement = 'suite' | 'testcase' | 'other';

function attribute(tag: SaxesTagPlain, name: string): string {
  return tag.attributes[name] ?? '';
}

function worse(left: TestOutcome, right: TestOutcome): TestOutcome {
  return OUTCOME_RANK[right] > OUTCOME_RANK[left] ? right : left;
}

/**
 * Reads a JUnit XML report (pytest's, or any runner's) with saxes, a strict XML 1.0 parser, and
 * maps JUnit's few elements here: the root <testsuites> or <testsuite>, <testsuite> nested in
 * it (vitest, go-junit-report and cargo nest them), their <testcase> children, and each case's
 * <failure>, <error> or <skipped>. The file is sandbox-written, so:
 * - the text is capped at MAX_TEST_REPORT_BYTES before it is parsed;
 * - no entity a DTD declares is expanded: saxes reads a DOCTYPE as text and a reference to a
 *   declared entity is an "undefined entity" error (no billion laughs, no external file);
 * - the XML must be well-formed, so a truncated report (a killed test process) or a second
 *   root is unreadable, never read as "the tests so far passed";
 * - the walk keeps a stack of element kinds, not a tree, so deep nesting costs memory in
 *   proportion to the (capped) text and no recursion.
 * Returns an UnreadableTestReport for an empty, unparsable or test-less report: never a pass.
 */
export async function parseJunitReport(xml: string): Promise<TestReport | UnreadableTestReport> {
  if (Buffer.byteLength(xml, 'utf8') > MAX_TEST_REPORT_BYTES) return new UnreadableTestReport(`the report is over ${MAX_TEST_REPORT_BYTES} bytes`);
  if (xml.trim() === '') return new UnreadableTestReport('the report is empty');
  const report: TestReport = { outcomes: new Map(), collectionErrors: [] };
  const open: OpenElement[] = [];
  let testCase: OpenTestCase | undefined;
  let hasSuiteRoot = false;
  let cases = 0;
  const parser = new SaxesParser<{ xmlns: false }>({ xmlns: false });
  parser.on('opentag', (tag) => {
    const parent = open.at(-1);
    if (parent === undefined) {
      hasSuiteRoot = tag.name === 'testsuites' || tag.name === 'testsuite';
      open.push(hasSuiteRoot ? 'suite' : 'other');
    } else if (parent === 'suite' && tag.name === 'testsuite') {
      open.push('suite');
    } else if (parent === 'suite' && tag.name === 'testcase') {
      testCase = { classname: attribute(tag, 'classname'), name: attribute(tag, 'name'), outcome: 'passed', isCollectionFailure: false };
      open.push('testcase');
    } else {
      const outcome = parent === 'testcase' ? CHILD_OUTCOME[tag.name] : undefined;
      if (testCase !== undefined && outcome !== undefined) {
        testCase.outcome = worse(testCase.outcome, outcome);
        if (outcome === 'error' && attribute(tag, 'message') === 'collection failure') testCase.isCollectionFailure = true;
      }
      open.push('other');
    }
  });
  parser.on('closetag', () => {
    if (open.pop() !== 'testcase' || testCase === undefined) return;
    const { classname, name, outcome, isCollectionFailure } = testCase;
    testCase = undefined;
    if (name === '') return;
    cases += 1;
    if (classname === '' && isCollectionFailure) report.collectionErrors.push(name);
    const key = testCaseKey(classname, name);
    const previous = report.outcomes.get(key);
    report.outcomes.set(key, previous === undefined ? outcome : worse(previous, outcome));
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return new UnreadableTestReport(`the report is not valid XML (${first.slice(0, 120)})`);
  }
  if (!hasSuiteRoot) return new UnreadableTestReport('the report has no <testsuites> or <testsuite> element');
  if (cases === 0) return new UnreadableTestReport('the report names no test case');
  return report;
}
