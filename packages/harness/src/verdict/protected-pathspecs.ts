import { DEFAULT_PROTECTED_PATHS, type Task } from '@agentbench/schemas';

/**
 * The task's tests as git pathspecs: its `evaluation.protected_paths` globs (or the Python
 * default), and every file named in `validation.expected_failing_tests` (`file::test` → file).
 */
export function protectedPathspecs(task: Pick<Task, 'evaluation' | 'validation'>): string[] {
  const globs = task.evaluation?.protected_paths ?? DEFAULT_PROTECTED_PATHS;
  const testFiles = (task.validation?.expected_failing_tests ?? []).map((test) => test.split('::')[0] ?? '').filter((file) => file !== '');
  return [...new Set([...globs.map((glob) => `:(glob)${glob}`), ...testFiles.map((file) => `:(literal)${file}`)])];
}

/** The same paths, excluded: what of a diff may reach the final test run. */
export function excludingPathspecs(pathspecs: readonly string[]): string[] {
  return pathspecs.map((pathspec) => pathspec.replace(/^:\((glob|literal)\)/, ':($1,exclude)'));
}
