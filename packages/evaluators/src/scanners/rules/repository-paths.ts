/** Folders whose files are tests, as pytest and most Python projects lay them out. */
const TEST_FOLDERS = new Set(['test', 'tests', 'testing']);

/**
 * Whether a file is part of the tests (where importing pytest is normal): under a `test`, `tests`
 * or `testing` folder, or named `test_*.py`, `*_test.py` or `conftest.py`. The task's own
 * protected paths are checked apart, by the verdict (TESTS_TAMPERED).
 */
export function isTestFile(file: string): boolean {
  const parts = file.split('/');
  const name = parts.at(-1) ?? '';
  return parts.slice(0, -1).some((part) => TEST_FOLDERS.has(part)) || /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === 'conftest.py';
}

export function isPythonFile(file: string): boolean {
  return file.endsWith('.py') || file.endsWith('.pyi');
}

export function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
