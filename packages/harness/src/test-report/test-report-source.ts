import path from 'node:path';
import type { Task } from '@agentbench/schemas';
import type { TestIdStyle } from './named-test-ids.js';

/**
 * Where the test command's per-test report comes from: pytest's JUnit XML, which the harness
 * asks for itself, or the file a task's other runner writes (`evaluation.results`).
 */
export interface TestReportSource {
  style: TestIdStyle;
  /** Absolute path of the report inside the sandbox. */
  file: string;
  /** Environment of the test command (pytest: the harness's `--junitxml`). */
  env: Record<string, string>;
  /**
   * True when the file may exist before the test command runs (`evaluation.results` names a
   * path the repository may hold, even commit), so it is removed first; false for pytest's,
   * whose name carries a fresh random nonce that nothing before this run can know.
   */
  mayExistBefore: boolean;
}

// `pytest`, `py.test`, `python -m pytest` as a word of the command (not `pytest-foo` or `mypytest`).
const PYTEST_COMMAND = /(^|[\s;&|(/'"])(py\.test|pytest)($|[\s;&|)'"])/;

/** True when the test command runs pytest. */
export function isPytestCommand(command: string): boolean {
  return PYTEST_COMMAND.test(command);
}

/** The names of the tests the task says must pass: FAIL_TO_PASS, and PASS_TO_PASS when it names them. */
export function namedTestsOf(task: Task): { failToPass: string[]; passToPass: string[] | undefined } {
  return { failToPass: task.validation?.expected_failing_tests ?? [], passToPass: task.evaluation?.pass_to_pass };
}

/**
 * The report source of a task whose verdict is its named tests, or undefined when the exit code
 * decides (the task names no tests, or runs something other than pytest without
 * `evaluation.results`). pytest's report goes to a file outside the work tree
 * (`<workdir>/.agentbench/`, beside the repository): the agent's diff cannot put a file there,
 * and its name is new for each run (`nonce`), so only this run's test process can write it. The
 * harness's `--junitxml` comes through PYTEST_ADDOPTS, which pytest reads after the ini file's
 * `addopts`, so a second `--junitxml` there loses; `-p no:junitxml` there leaves no report.
 * `nonce` must be unguessable and new for each test run: it keeps the file apart from any other
 * run's, and it is why the file need not be removed before the run.
 */
export function testReportSourceFor(task: Task, workdir: string, repoPath: string, nonce: string): TestReportSource | undefined {
  const { failToPass, passToPass } = namedTestsOf(task);
  if (failToPass.length === 0 && (passToPass ?? []).length === 0) return undefined;
  const results = task.evaluation?.results;
  if (results !== undefined) {
    return { style: 'junit', file: path.posix.resolve(workdir, repoPath, results.path), env: {}, mayExistBefore: true };
  }
  if (!isPytestCommand(task.run.command)) return undefined;
  const file = path.posix.join(workdir, '.agentbench', `test-report-${nonce}.xml`);
  return { style: 'pytest', file, env: { PYTEST_ADDOPTS: `--junitxml=${file}` }, mayExistBefore: false };
}
