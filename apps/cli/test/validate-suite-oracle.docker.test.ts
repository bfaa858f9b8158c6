import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SuiteValidity } from '@agentbench/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('validate-suite-oracle.docker.test.ts');

// The scripted agent's fix of toy_fail_pytest (its task.yaml): a reference patch that passes.
const MEDIAN_FIX = `--- a/src/toy_calc/stats.py
+++ b/src/toy_calc/stats.py
@@ -15,5 +15,8 @@ def median(values):
     """
     if not values:
         raise ValueError("median() of an empty sequence")
-    middle = len(values) // 2
-    return values[middle]
+    ordered = sorted(values)
+    middle = len(ordered) // 2
+    if len(ordered) % 2 == 1:
+        return ordered[middle]
+    return (ordered[middle - 1] + ordered[middle]) / 2
`;
// A reference patch that applies but fixes nothing: it rewords toy_one_liner's module docstring, clamp() stays wrong.
const NOT_A_FIX = [
  '--- a/src/toy_calc/bounds.py',
  '+++ b/src/toy_calc/bounds.py',
  '@@ -1,3 +1,3 @@',
  '-"""Keeping numbers inside a range."""',
  '+"""Keeping numbers inside a range (this patch does not fix clamp)."""',
  ' ',
  ' ',
  '',
].join('\n');

describe.skipIf(skipReason !== undefined)('ab validate-suite --oracle-runs in real Docker', () => {
  const scratch = useDockerScratch();
  beforeAll(async () => {
    const suiteDir = path.join(scratch.path, 'tasks', 'oracle-check');
    // A loaded machine (two cores shared) can take over a minute for pip install: the validity verdict is under test here, not the clock.
    await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(suiteDir, 'toy_fail_pytest'), timeoutSec: 300, goldPatch: MEDIAN_FIX });
    await copyToyTask({ taskId: 'toy_one_liner', folder: path.join(suiteDir, 'toy_one_liner'), timeoutSec: 300, goldPatch: NOT_A_FIX });
  });

  // A reference patch that does not apply (oracle_does_not_apply) is checked on the local backend: src/suite/check-task-validity.test.ts in the harness.
  it('keeps the task whose reference patch passes twice and flags the one whose patch never fixes it', async () => {
    const run = await runCli(['validate-suite', 'oracle-check', '--tasks', path.join(scratch.path, 'tasks'), '--out', path.join(scratch.path, 'out'), '--oracle-runs', '2', '-j', '2']);
    expect(run.stdout).toContain('1 of 2 tasks valid (baseline fails every time, oracle passes every time; 2 runs of each)');
    expect(run.stdout).toContain('  toy_one_liner: oracle-fails: oracle passed 0/2, baseline failed 2/2: the reference patch never passed the tests (oracle 1: TESTS_FAILED; oracle 2: TESTS_FAILED)');
    // A flagged task fails the command even though both baselines are valid.
    expect(run.exitCode).toBe(1);
    const runDir = /run: (.+)\n/.exec(run.stdout)?.[1] as string;
    const validity = JSON.parse(await readFile(path.join(runDir, 'validity.json'), 'utf8')) as SuiteValidity;
    scratch.runIds.push(validity.run_id);
    expect(validity).toMatchObject({ oracle_runs: 2, valid: 1, total: 2 });
    const byTask = Object.fromEntries(validity.tasks.map((task) => [task.task_id, task]));
    expect(byTask['toy_fail_pytest']).toMatchObject({ verdict: 'valid', oracle_passes: 2, oracle_runs: 2, baseline_failures: 2, errored_runs: 0 });
    // The patch applies (the oracle's apply_patch accepts it) and the final test fails: the final test's own reason, not the loop's AGENT_GAVE_UP.
    expect(byTask['toy_one_liner']).toMatchObject({ verdict: 'oracle_fails', oracle_passes: 0, oracle_runs: 2, baseline_failures: 2, reasons: ['oracle 1: TESTS_FAILED', 'oracle 2: TESTS_FAILED'] });
    // Every run left its records; no workspace is kept.
    for (const task of validity.tasks) {
      expect(task.run_folders).toHaveLength(4);
      for (const folder of task.run_folders) expect(existsSync(path.join(runDir, folder, 'workspace'))).toBe(false);
    }
    const baselines = (await readFile(path.join(runDir, 'validity', 'toy_fail_pytest', 'attempts.jsonl'), 'utf8')).trim().split('\n');
    expect(baselines).toHaveLength(2);
  }, 900_000); // 15 attempts at -j 2 on two shared cores
});
