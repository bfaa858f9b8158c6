import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('run-task-validity.docker.test.ts');

async function runIdsIn(attemptsFile: string): Promise<string[]> {
  const text = await readFile(attemptsFile, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { run_id: string }).run_id);
}

// Issue 27 item 2: a task whose baseline validate-suite marked BASELINE_NOT_FAILING was counted as a pass by ab run.
describe.skipIf(skipReason !== undefined)('ab run knows each task\'s validity (real Docker)', () => {
  const scratch = useDockerScratch();
  const suiteDir = (): string => path.join(scratch.path, 'tasks', 'validity');
  beforeAll(async () => {
    // A loaded machine (two cores shared) can take over a minute for pip install: the counting is under test, not the clock.
    await copyToyTask({ taskId: 'toy_pass_pytest', folder: path.join(suiteDir(), 'toy_pass_pytest'), suite: 'validity', timeoutSec: 300 });
    // An agent that stops at once: 0 steps, as in the issue; the tests of toy_pass_pytest pass without any change.
    await writeFile(path.join(scratch.path, 'stop-agent.mjs'), "export default () => ({ name: 'stop', async nextAction() { return { kind: 'stop', reason: 'done', message: 'nothing to do' }; } });\n");
  });

  it('leaves the attempts of a task whose baseline does not fail out of the pass rate, marked "unverified task", and warns of a task never validated', async () => {
    const validated = await runCli(['validate-suite', 'validity', '--tasks', path.join(scratch.path, 'tasks')], { cwd: scratch.path });
    const suiteRun = /run: (.+)\n/.exec(validated.stdout)?.[1] as string;
    scratch.runIds.push((JSON.parse(await readFile(path.join(suiteRun, 'run.json'), 'utf8')) as { run_id: string }).run_id);
    expect(validated.stdout).toContain('BASELINE_NOT_FAILING');

    // Added after the validation: never validated.
    await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(suiteDir(), 'toy_fail_pytest'), suite: 'validity', timeoutSec: 300 });
    const out = path.join(scratch.path, 'runs', 'stop');
    const run = await runCli(['run', '--suite', 'validity', '--tasks', path.join(scratch.path, 'tasks'), '--agent', './stop-agent.mjs', '--out', out], { cwd: scratch.path });
    scratch.runIds.push(...(await runIdsIn(path.join(out, 'attempts.jsonl'))));
    expect(run.stderr).toMatch(/warning: toy_pass_pytest: baseline not shown to fail \(BASELINE_NOT_FAILING, in .*attempts\.jsonl\): its attempts are marked "unverified task" and left out of pass rates \(--include-unvalidated counts them\)/);
    expect(run.stderr).toContain('warning: 1 task never validated (toy_fail_pytest): reported as unvalidated; validate first with ab validate-suite --suite validity, or run with --validate-baseline');
    // toy_pass_pytest passed with 0 steps but is not counted: the pass rate is toy_fail_pytest's alone, 0/1 (it was 1/2).
    expect(run.stdout).toContain('./stop-agent.mjs: 2/2 ran; 0/1 passed; 1 unverified task, not counted; 1 unvalidated');
    expect(run.stdout).toContain('  unverified task toy_pass_pytest (BASELINE_NOT_FAILING): its baseline was not shown to fail; not counted (--include-unvalidated counts it)');
    expect(run.exitCode).toBe(0);

    const markdown = await runCli(['report', out, '--format', 'md'], { cwd: scratch.path });
    expect(markdown.stdout).toContain('**2/2 ran; 0/1 passed; 1 unverified task, not counted; 1 unvalidated** (0.0%');
    expect(markdown.stdout).toMatch(/\| toy_pass_pytest \| \.\/stop-agent\.mjs \| passed \| unverified task \(BASELINE_NOT_FAILING\)/);
    expect(markdown.stdout).toMatch(/\| toy_fail_pytest \(unvalidated task\) \|/);
    const json = JSON.parse((await runCli(['report', out, '--format', 'json'], { cwd: scratch.path })).stdout) as { summary: { overall: Record<string, unknown> }; rows: Array<Record<string, unknown>> };
    expect(json.summary.overall['pass_rate']).toBe(0);
    expect(json.rows.find((row) => row['task_id'] === 'toy_pass_pytest')?.['task_validity']).toMatchObject({ status: 'unverified', reason: 'BASELINE_NOT_FAILING', counted: false });
    expect(json.rows.find((row) => row['task_id'] === 'toy_fail_pytest')?.['task_validity']).toMatchObject({ status: 'unvalidated', counted: true });
  }, 600_000);
});
