import type { ExecResult } from '@agentbench/sandbox';
import { MAX_TEST_REPORT_BYTES, parseJunitReport, UnreadableTestReport, type TestReport } from './junit-report.js';
import type { TestReportSource } from './test-report-source.js';

/** Runs one of the harness's own commands in the sandbox that ran the tests (argv, no shell). */
export type ReportCommandRunner = (argv: string[], logName: string, outputCapBytes?: number) => Promise<ExecResult>;

/**
 * Removes the report before the test command runs, so that only this run's test process can have
 * written it. A file that cannot exist yet (pytest's, named by a fresh nonce) costs no command:
 * each command in a sandbox is an exec, the larger part of what reading the report adds to an attempt.
 */
export async function removeTestReport(run: ReportCommandRunner, source: TestReportSource): Promise<void> {
  if (!source.mayExistBefore) return;
  await run(['rm', '-f', '--', source.file], 'test_report_remove');
}

/**
 * Reads the report the test command wrote, inside the sandbox (`cat`, argv, output capped at
 * MAX_TEST_REPORT_BYTES), and parses it; an absent, over-sized, empty or unparsable report is an
 * UnreadableTestReport, which is TESTS_NOT_REPORTED to the caller.
 */
export async function readTestReport(run: ReportCommandRunner, source: TestReportSource): Promise<TestReport | UnreadableTestReport> {
  const read = await run(['cat', '--', source.file], 'test_report', MAX_TEST_REPORT_BYTES);
  if (read.exitCode !== 0) return new UnreadableTestReport(`no report was written at ${source.file}`);
  if (read.truncated) return new UnreadableTestReport(`the report is over ${MAX_TEST_REPORT_BYTES} bytes`);
  return parseJunitReport(read.stdout);
}
