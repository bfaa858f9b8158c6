#!/usr/bin/env node
// Regenerates executor-script.ts from executor.py, the one source of the executor:
// the script ships as a string constant so tsup bundles it with no file to copy.
// Run after editing executor.py: `node src/core/executor/generate-executor-script.mjs`
// (executor-script.test.ts fails while the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function renderExecutorScriptModule(source) {
  return [
    '// Generated from executor.py by generate-executor-script.mjs. Do not edit: edit executor.py,',
    '// then run `node src/core/executor/generate-executor-script.mjs`.',
    '',
    '/** Source of the in-sandbox executor (Python 3.6+, standard library only). */',
    `export const EXECUTOR_SCRIPT: string = ${JSON.stringify(source)};`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = readFileSync(new URL('./executor.py', import.meta.url), 'utf8');
  writeFileSync(new URL('./executor-script.ts', import.meta.url), renderExecutorScriptModule(source));
  console.log('wrote src/core/executor/executor-script.ts');
}
