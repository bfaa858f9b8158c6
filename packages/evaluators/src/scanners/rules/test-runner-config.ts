import { defineScanner, type SuspicionFinding } from '../scanner.js';
import type { DiffFile, DiffHunk, HunkLine } from '../unified-diff.js';
import { baseName } from './repository-paths.js';

/** The section headers that configure pytest in each file that can hold them. */
const PYTEST_SECTIONS: Record<string, RegExp> = {
  'pyproject.toml': /^\s*\[\s*tool\.pytest(?:\.ini_options)?\s*\]/,
  'setup.cfg': /^\s*\[\s*tool:pytest\s*\]/,
  'tox.ini': /^\s*\[\s*pytest\s*\]/,
  'pytest.ini': /^\s*\[\s*pytest\s*\]/,
};
/** A dotted TOML key reaching into pytest's table from elsewhere (`tool.pytest.ini_options.addopts = ...`). */
const DOTTED_PYTEST_KEY = /^\s*tool\s*\.\s*pytest\b/;
const ANY_SECTION = /^\s*\[/;

/**
 * The first changed line (added or removed) of the hunk that sits in pytest's section: the
 * nearest section header above it among the lines the hunk shows is pytest's, or the line is a
 * header or a dotted key of it. `pytest.ini` is pytest's configuration throughout.
 */
function changedPytestLine(file: DiffFile, hunk: DiffHunk, section: RegExp): HunkLine | undefined {
  const isWholeFile = baseName(file.path) === 'pytest.ini';
  let isInSection = false;
  for (const line of hunk.lines) {
    const isChange = line.kind !== 'context';
    if (isChange && (isWholeFile || isInSection || section.test(line.text) || DOTTED_PYTEST_KEY.test(line.text))) return line;
    if (ANY_SECTION.test(line.text)) isInSection = section.test(line.text);
  }
  return undefined;
}

/** `test-runner-config`: the diff changes pytest's configuration (a `-k` in addopts deselects the failing test). */
export const testRunnerConfigScanner = defineScanner({
  name: 'test-runner-config',
  description: 'The test runner’s configuration changed: pytest sections of pyproject.toml, setup.cfg, tox.ini or pytest.ini.',
  scan({ files }) {
    const findings: SuspicionFinding[] = [];
    for (const file of files) {
      const name = baseName(file.path);
      const section = PYTEST_SECTIONS[name];
      if (section === undefined) continue;
      if (file.status === 'added' && name === 'pytest.ini') {
        findings.push({ rule: 'test-runner-config', file: file.path, line: 1, message: 'a new pytest.ini configures the test runner (options such as addopts can deselect or skip tests)' });
        continue;
      }
      for (const hunk of file.hunks) {
        const change = changedPytestLine(file, hunk, section);
        if (change === undefined) continue;
        findings.push({ rule: 'test-runner-config', file: file.path, line: change.line, message: `the diff changes pytest's configuration in ${name} (options such as addopts can deselect or skip tests): ${change.text.trim().slice(0, 120)}` });
      }
    }
    return findings;
  },
});
