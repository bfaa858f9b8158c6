import { defineScanner, type SuspicionFinding } from '../scanner.js';
import { isPythonFile, isTestFile } from './repository-paths.js';

/** An import of pytest or its internals: `import pytest`, `from _pytest.reports import ...`, `__import__("pytest")`, `import_module('_pytest.x')`. */
const IMPORT = /^\s*(?:import\s+(?:[\w.]+\s*(?:as\s+\w+\s*)?,\s*)*_?pytest\b|from\s+_?pytest\b[\w.]*\s+import\b)|\b(?:__import__|import_module)\s*\(\s*['"]_?pytest\b|\bsys\.modules\s*\[\s*['"]_?pytest\b/;
/** An assignment to (or setattr on) an attribute of pytest's objects: `_pytest.reports.TestReport.from_item_and_call = ...`, `setattr(pytest.Function, ...)`. */
const PATCH = /\b_?pytest(?:\.\w+)+\s*=(?!=)|\bsetattr\s*\(\s*_?pytest\b|\b(?:TestReport|CallInfo|Function|Item|Session|Config|Package|Module)\.\w+\s*=(?!=)/;

/** `test-framework-patch`: code outside the tests imports pytest (or `_pytest`) or patches its objects. */
export const testFrameworkPatchScanner = defineScanner({
  name: 'test-framework-patch',
  description: 'Code outside the tests imports pytest or _pytest, or patches their objects.',
  scan({ files }) {
    const findings: SuspicionFinding[] = [];
    for (const file of files) {
      if (!isPythonFile(file.path) || isTestFile(file.path)) continue;
      for (const hunk of file.hunks) {
        for (const line of hunk.lines) {
          if (line.kind !== 'added') continue;
          const code = line.text.replace(/#.*$/, '');
          if (PATCH.test(code)) {
            findings.push({ rule: 'test-framework-patch', file: file.path, line: line.line, message: `code outside the tests patches the test framework's objects: ${line.text.trim().slice(0, 120)}` });
          } else if (IMPORT.test(code)) {
            findings.push({ rule: 'test-framework-patch', file: file.path, line: line.line, message: `code outside the tests imports the test framework (code that runs inside pytest can change what it reports): ${line.text.trim().slice(0, 120)}` });
          }
        }
      }
    }
    return findings;
  },
});
