import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';

// What a whole process does when a plugin exits is only visible from outside it: these tests run the
// guard (compiled from its source, which imports nothing) in a child Node process.
const guardSource = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/guard/guarded-evaluation.ts');

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  const compiled = ts.transpileModule(await readFile(guardSource, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  await writeFile(path.join(directory.path, 'guard.mjs'), compiled.outputText);
});
afterEach(async () => {
  await directory.remove();
});

async function runChild(body: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = await directory.write('child.mjs', `import { runGuardedEvaluation } from './guard.mjs';\n${body}\n`);
  const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('a plugin that ends the process', () => {
  it('cannot end it as a success from a timer that outlives its evaluation', async () => {
    const child = await runChild(`
const outcome = await runGuardedEvaluation(async () => {
  setTimeout(() => process.exit(0), 20);
  return 'passed';
}, { label: 'evaluator "late" of plugin "p" 1.0.0' });
console.log(JSON.stringify(outcome));
await new Promise((resolve) => setTimeout(resolve, 100));
console.log('still running');
process.exitCode = 0;`);
    expect(child.stdout).toBe('{"kind":"value","value":"passed"}\nstill running\n');
    expect(child.stderr).toContain('ab: evaluator "late" of plugin "p" 1.0.0 called process.exit(0) after its evaluation finished; blocked, and this process will not exit 0');
    expect(child.status).toBe(1);
  });

  it('cannot end it as a success with a process.exit it kept from before the evaluation', async () => {
    const child = await runChild(`
const keptExit = process.exit;
await runGuardedEvaluation(async () => keptExit(0), { label: 'evaluator "sly" of plugin "p" 1.0.0' });
console.log('not reached');`);
    expect(child.stdout).toBe('');
    expect(child.stderr).toContain('ab: the process is exiting while evaluator "sly" of plugin "p" 1.0.0 runs; the run is not a pass');
    expect(child.status).toBe(1);
  });

  it('lets the host application exit normally outside evaluations', async () => {
    const child = await runChild(`
await runGuardedEvaluation(async () => 'ok', { label: 'evaluator "fine" of plugin "p" 1.0.0' });
process.exit(0);`);
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
  });
});
