import { quoteShellWord, quoteShellWords } from '@agentbench/helpers';
import type { SwebenchRecord } from '../records/swebench-record.js';
import type { RepositoryProfile } from '../repositories/repository-profiles.js';
import { changedFilesOfPatch } from './patch-files.js';

/** The test command of an imported task and how it chose what to run. */
export interface TestCommandPlan {
  command: string;
  /** The arguments that select tests (node ids, labels, files), in order. */
  selectors: string[];
  /** Decisions a reader of task.yaml should know about; written as comments. */
  notes: string[];
  /**
   * The FAIL_TO_PASS and PASS_TO_PASS ids as pytest node ids (cut-short ids widened to their test
   * function), for the task's named tests; absent for runners whose ids are not node ids.
   */
  namedTests?: { failToPass: string[]; passToPass: string[] };
}

export const PYTEST_COMMAND = 'python3 -m pytest -rA --tb=short -p no:cacheprovider';
export const DJANGO_COMMAND = 'python3 tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1';

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function environmentPrefix(profile: RepositoryProfile): string {
  const assignments = Object.entries(profile.environment ?? {}).map(([name, value]) => `${name}=${quoteShellWord(value)}`);
  return assignments.length === 0 ? '' : `${assignments.join(' ')} `;
}

// SWE-bench's log parser splits lines on whitespace, so a parametrized id whose parameters hold a
// space is cut short (`test_x[a` for `test_x[a b]`); pytest cannot find such an id.
export function isCutShort(testId: string): boolean {
  return (testId.match(/\[/g)?.length ?? 0) > (testId.match(/\]/g)?.length ?? 0);
}

function pytestPlan(record: SwebenchRecord, profile: RepositoryProfile): TestCommandPlan {
  const notes: string[] = [];
  const widened: string[] = [];
  const widen = (testId: string): string => {
    if (!isCutShort(testId)) return testId;
    widened.push(testId);
    return testId.slice(0, testId.indexOf('['));
  };
  const failToPass = unique(record.failToPass.map(widen));
  const passToPass = unique(record.passToPass.map(widen)).filter((testId) => !failToPass.includes(testId));
  const selectors = unique([...failToPass, ...passToPass]);
  if (widened.length > 0) {
    notes.push(
      `${widened.length} parametrized id(s) are cut short in the dataset (a space in the parameters); their whole test function runs instead, and every case of it is the named test: ${widened.slice(0, 3).join(', ')}${widened.length > 3 ? ', ...' : ''}`,
    );
  }
  return { command: `${environmentPrefix(profile)}${PYTEST_COMMAND} -- ${quoteShellWords(selectors, { isAlwaysQuoted: true })}`, selectors, notes, namedTests: { failToPass, passToPass } };
}

// `test_name (module.Class)`, or `test_name (module.Class.test_name)` as Python 3.11's unittest prints it.
const UNITTEST_ID = /^(\w+) \(([\w.]+)\)$/;

/** The module label of a Django test file: `tests/user_commands/tests.py` → `user_commands.tests`. */
function djangoModuleLabel(file: string): string | undefined {
  const match = /^tests\/(.+)\.py$/.exec(file);
  if (!match) return undefined;
  return (match[1] as string).replaceAll('/', '.');
}

function djangoPlan(record: SwebenchRecord, profile: RepositoryProfile): TestCommandPlan {
  const notes: string[] = [];
  const labels: string[] = [];
  const docstringIds: string[] = [];
  for (const testId of [...record.failToPass, ...record.passToPass]) {
    const match = UNITTEST_ID.exec(testId);
    if (!match) {
      docstringIds.push(testId);
      continue;
    }
    const [, name, owner] = match as unknown as [string, string, string];
    labels.push(owner.endsWith(`.${name}`) ? owner : `${owner}.${name}`);
  }
  let selectors = unique(labels);
  if (docstringIds.length > 0) {
    // Django prints a test's docstring instead of its name; such an id names no label, so the
    // modules the test patch touches run whole (what the SWE-bench harness runs for every task).
    const modules = unique(changedFilesOfPatch(record.testPatch).map(djangoModuleLabel).filter((label): label is string => label !== undefined));
    selectors = [...modules, ...selectors.filter((label) => !modules.some((module) => label.startsWith(`${module}.`)))];
    notes.push(
      `${docstringIds.length} test id(s) are docstrings, not names (e.g. "${docstringIds[0]}"); the test modules of the test patch run whole: ${modules.join(', ') || '(none found)'}`,
    );
  }
  return { command: `${environmentPrefix(profile)}${DJANGO_COMMAND} ${quoteShellWords(selectors, { isAlwaysQuoted: true })}`, selectors, notes };
}

function sympyPlan(record: SwebenchRecord, profile: RepositoryProfile): TestCommandPlan {
  const files = changedFilesOfPatch(record.testPatch).filter((file) => file.endsWith('.py'));
  const names = unique([...record.failToPass, ...record.passToPass]);
  const notes = [`sympy ids are function names: pytest runs ${files.length} file(s) of the test patch and selects the ids with -k (a name also selects longer names that contain it)`];
  const keywordExpression = names.join(' or ');
  const command = `${environmentPrefix(profile)}${PYTEST_COMMAND} -k ${quoteShellWord(keywordExpression, { isAlwaysQuoted: true })} -- ${quoteShellWords(files, { isAlwaysQuoted: true })}`;
  return { command, selectors: [...files, ...names], notes };
}

/**
 * The task's `run.command`: runs the FAIL_TO_PASS and PASS_TO_PASS tests with the repository's
 * runner, every selector quoted for a POSIX shell (ids with spaces, brackets and quotes are common).
 */
export function buildTestCommand(record: SwebenchRecord, profile: RepositoryProfile): TestCommandPlan {
  switch (profile.testRunner) {
    case 'django':
      return djangoPlan(record, profile);
    case 'sympy':
      return sympyPlan(record, profile);
    default:
      return pytestPlan(record, profile);
  }
}
