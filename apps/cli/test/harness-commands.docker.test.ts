import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { runCli } from './run-cli.js';
import { toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('harness-commands.docker.test.ts');

// Real attempts on a shared 2-core CI machine can pass the 60 s default; a hang still fails at 5 minutes.
describe.skipIf(skipReason !== undefined)('ab run-task and ab validate-suite in real Docker', { timeout: 300_000 }, () => {
  const scratch = useDockerScratch();

  it('ab run-task runs a passing task, exits 0 and keeps run.json, the record, logs and the workspace', async () => {
    const out = path.join(scratch.path, 'run-task');
    const run = await runCli(['run-task', toyTaskFile('toy_pass_pytest'), '--out', out, '--json']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const printed = JSON.parse(run.stdout) as { run_dir: string; record: { run_id: string; result: { passed: boolean; exit_code: number } } };
    scratch.runIds.push(printed.record.run_id);
    expect(printed.record.result).toMatchObject({ passed: true, exit_code: 0 });
    // What ran is recorded: the backend, and the engine's default runtime by its name.
    expect(printed.record).toMatchObject({ backend: 'docker', runtime: 'runc' });
    const runDir = printed.run_dir;
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(runJson).toMatchObject({
      kind: 'task',
      status: 'completed',
      task_ids: ['toy_pass_pytest'],
      counts: { total: 1, passed: 1, failed: 0 },
      details: { repo: { commit_sha: '200aef2749a8a3e789785b5b0a2364f11aaa4852' }, network: { setup: 'bridge', run: 'none' }, docker_image: 'agentbench/py-runner:0.1.0' },
    });
    expect((await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(existsSync(path.join(runDir, 'workspace', 'repo', 'src', 'toy_calc', 'stats.py'))).toBe(true);
    expect(existsSync(path.join(runDir, 'task', 'task.yaml'))).toBe(true);
    expect(await readFile(path.join(runDir, 'logs', 'environment.log'), 'utf8')).toMatch(/pytest \d/);
    expect(await readFile(path.join(runDir, 'logs', 'run.log'), 'utf8')).toMatch(/6 passed/);
  });

  it('ab run-task exits 1 with TESTS_FAILED for a failing task', async () => {
    const run = await runCli(['run-task', toyTaskFile('toy_fail_pytest'), '--out', path.join(scratch.path, 'run-task-fail')]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^toy_fail_pytest: FAILED TESTS_FAILED in (?:\d+m)?[\d.]+s: the test command exited with 1: .*\(2 failing\)\n/);
    expect(run.stderr.split('\n').filter((line) => line !== '')).toEqual([
      'toy_fail_pytest: git_clone',
      'toy_fail_pytest: git_checkout',
      'toy_fail_pytest: setup',
      'toy_fail_pytest: post_setup_check',
      'toy_fail_pytest: final_test',
    ]);
  });

  it('ab validate-suite validates custom-dev, prints one line per task and the summary table, and exits 1 for the invalid tasks', async () => {
    const restoreEnvironment = applyEnvironment({ CI: '1' });
    let run;
    try {
      run = await runCli(['validate-suite', 'custom-dev', '--tasks', path.join(repositoryRoot, 'tasks'), '--out', path.join(scratch.path, 'suite'), '-j', '2']);
    } finally {
      restoreEnvironment();
    }
    const runDir = /^run: (.*)$/m.exec(run.stdout)?.[1] ?? '';
    scratch.runIds.push((JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { run_id: string }).run_id);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^5 tasks of custom-dev to validate, 2 at a time\n/);
    expect(run.stderr.split('\n').filter((line) => /^\[\d\/5\] /.test(line))).toHaveLength(5);
    expect(run.stderr).toMatch(/\[\d\/5\] toy_pass_pytest INVALID BASELINE_NOT_FAILING (?:\d+m)?[\d.]+s\n/);
    const rows = run.stdout.split('\n');
    expect(rows[0]).toMatch(/^task\s+outcome\s+failure reason\s+duration\s+detail$/);
    expect(rows.find((row) => row.startsWith('toy_fail_pytest '))).toMatch(/^toy_fail_pytest\s+VALID\s+-\s+(?:\d+m)?[\d.]+s$/);
    expect(rows.find((row) => row.startsWith('toy_pass_pytest '))).toMatch(/^toy_pass_pytest\s+INVALID\s+BASELINE_NOT_FAILING\s+(?:\d+m)?[\d.]+s\s+the tests passed before any change/);
    expect(rows.find((row) => row.startsWith('toy_setup_fail '))).toMatch(/SETUP_FAILED\s+(?:\d+m)?[\d.]+s\s+setup command 1 \(pip install --no-index nonexistent-package-xyz-12345\) exited with 1/);
    expect(run.stdout).toContain('2 valid, 3 invalid, 0 errored, 0 skipped in ');
  });
});
