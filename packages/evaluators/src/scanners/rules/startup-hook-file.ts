import { defineScanner, type SuspicionFinding } from '../scanner.js';
import { baseName } from './repository-paths.js';

/** Files Python runs at every interpreter start when they sit on its path (`site` imports them; a `.pth` line starting with `import` is executed). */
const STARTUP_FILES = new Set(['sitecustomize.py', 'usercustomize.py']);

/** `startup-hook-file`: a new (or changed) `sitecustomize.py`, `usercustomize.py` or `*.pth` file. */
export const startupHookFileScanner = defineScanner({
  name: 'startup-hook-file',
  description: 'A new or changed sitecustomize.py, usercustomize.py or *.pth file: code Python runs at startup, in the test process too.',
  scan({ files }) {
    const findings: SuspicionFinding[] = [];
    for (const file of files) {
      const name = baseName(file.path);
      if (file.status === 'deleted' || !(STARTUP_FILES.has(name) || name.endsWith('.pth'))) continue;
      const firstAdded = file.hunks.flatMap((hunk) => hunk.lines).find((line) => line.kind === 'added');
      const what = file.status === 'added' ? 'a new' : 'a changed';
      findings.push({ rule: 'startup-hook-file', file: file.path, line: firstAdded?.line ?? null, message: `${what} ${name}: Python runs it at every start when it is on the path, before the tests` });
    }
    return findings;
  },
});
