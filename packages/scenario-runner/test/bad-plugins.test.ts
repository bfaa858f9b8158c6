import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runScenario } from '../src/run/run-scenario.js';
import type { ScenarioRunResult } from '../src/run/scenario-result.js';

// The bad-input corpus's plugin (a plain module, no imports): it never settles, exits, or floods its message.
const misbehavingPlugin = path.join(repositoryRoot, 'fixtures/bad-inputs/plugins/misbehaving.mjs');

function scenario(evaluations: string): string {
  return `name: Misbehaving plugin
description: a code step judged by a plugin's evaluator
plugins: ["./misbehaving.mjs"]
environment:
  type: local
run:
  - code: echo hello
    evaluations:
${evaluations}
judgment:
  strategy: all_pass
`;
}

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  await directory.write('misbehaving.mjs', await readFile(misbehavingPlugin, 'utf8'));
});
afterEach(async () => {
  await directory.remove();
});

async function run(evaluations: string): Promise<{ result: ScenarioRunResult; written: ScenarioRunResult; bytes: number }> {
  const file = await directory.write('s.scenario.yaml', scenario(evaluations));
  const outDir = path.join(directory.path, 'out');
  const result = await runScenario(file, { outDir, seed: 1, plugins: { configFile: false } });
  const resultFile = path.join(outDir, 'result.json');
  return { result, written: JSON.parse(await readFile(resultFile, 'utf8')) as ScenarioRunResult, bytes: (await stat(resultFile)).size };
}

describe('a plugin evaluator that misbehaves', () => {
  it('that never settles: the evaluation errors at its timeout, naming evaluator and plugin, and result.json is written', async () => {
    const { result, written } = await run('      - type: never_settles\n        timeout_ms: 200\n      - type: string_contains\n        value: hello\n');
    expect(result.status).toBe('errored');
    expect(written.passed).toBe(false);
    expect(written.evaluations.map((evaluation) => [evaluation.type, evaluation.success])).toEqual([
      ['never_settles', false],
      ['string_contains', true],
    ]);
    expect(written.errors.map((error) => error.message)).toEqual([
      'never_settles: could not evaluate: evaluator "never_settles" of plugin "misbehaving" 0.1.0 did not finish within 200 ms (timeout_ms of the entry); it was abandoned',
    ]);
  });

  it('that calls process.exit(0): the exit is blocked, the run errors, and result.json is written', async () => {
    const { result, written } = await run('      - type: exits\n');
    expect(result.status).toBe('errored');
    expect(written.evaluations[0]?.error).toBe(
      'evaluator "exits" of plugin "misbehaving" 0.1.0 called process.exit(0) during evaluation; the exit was blocked and the evaluation is an error',
    );
  });

  it('that returns a 50 MB message: result.json stays small, with the cut marked', async () => {
    const { result, written, bytes } = await run('      - type: floods\n');
    // The corpus's evaluator judges the step failed: the run completes and only its message is cut.
    expect(result.status).toBe('failed');
    expect(written.evaluations[0]?.message).toMatch(/^m{4000}… \[cut: 52,424,800 more characters\]$/);
    expect(bytes).toBeLessThan(200 * 1024);
  });
});
