import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedFixturePath, sharedFixturesSkipReason } from '../../../test-support/shared-fixtures.js';
import { runCli } from './run-cli.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const originalTaskPath = 'agentbench-py-tasks/custom-dev/toy_fail_pytest/task.yaml';
const originalTask = sharedFixturePath(originalTaskPath);
const skipOriginalTask = sharedFixturesSkipReason('harness-commands.test.ts', originalTaskPath) !== undefined;

// Bad input and runs that end before any sandbox exists: no engine needed.
describe('ab run-task and ab validate-suite without an engine', () => {
  const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-cli-harness-' });

  it.skipIf(skipOriginalTask)("records the original project's task as GIT_CLONE_FAILED, warns about the missing repo, and exits 1", async () => {
    const run = await runCli(['run-task', originalTask, '--out', temporary.path]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/warning: .*repo\.url.*does not exist/);
    expect(run.stdout).toMatch(/^toy_fail_pytest: FAILED GIT_CLONE_FAILED in (?:\d+m)?[\d.]+s: cannot clone .*examples\/toy_repo: fatal: repository '.*examples\/toy_repo' does not exist\n/);
    const [runName] = await readdir(path.join(temporary.path, 'runs'));
    expect(runName).toMatch(/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}__[0-9A-Z]{26}$/);
    const runJson = JSON.parse(await readFile(path.join(temporary.path, 'runs', runName as string, 'run.json'), 'utf8')) as { kind: string; status: string };
    expect(runJson).toMatchObject({ kind: 'task', status: 'completed' });
    expect(run.stdout).toContain(`run: ${path.join(temporary.path, 'runs', runName as string)}`);
  });

  it('names a task file that does not exist', async () => {
    const missing = path.join(temporary.path, 'nope', 'task.yaml');
    const run = await runCli(['run-task', missing]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(missing);
  });

  it('lists the suites that exist when the suite is unknown', async () => {
    const run = await runCli(['validate-suite', 'no-such-suite', '--tasks', path.join(repoRoot, 'tasks'), '--out', temporary.path]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/unknown suite "no-such-suite" in .*tasks: suites that exist: custom-dev/);
  });

  it('refuses -j 0', async () => {
    const run = await runCli(['validate-suite', 'custom-dev', '--tasks', path.join(repoRoot, 'tasks'), '-j', '0']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('-j/--jobs: expected a whole number of at least 1, found 0');
  });

  it('refuses to resume a folder that is not a run', async () => {
    const run = await runCli(['validate-suite', 'custom-dev', '--tasks', path.join(repoRoot, 'tasks'), '--resume', temporary.path]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`${path.join(temporary.path, 'run.json')}: not found: --resume expects a run directory made by \`ab validate-suite\``);
  });
});
