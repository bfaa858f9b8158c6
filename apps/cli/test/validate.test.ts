import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedFixturePath, sharedFixturesSkipReason } from '../../../test-support/shared-fixtures.js';
import { VALID_TASK_YAML as validTask } from '../../../fixtures/bad-inputs/generate.mjs';
import { runCli } from './run-cli.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const skipElizaScenarios = sharedFixturesSkipReason('validate.test.ts', 'eliza-scenarios') !== undefined;

const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-cli-validate-' });

async function writeTask(name: string, text: string): Promise<string> {
  const file = path.join(temporary.path, name, 'task.yaml');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

describe('ab validate', () => {
  it('accepts the bundled custom-dev tasks', async () => {
    const run = await runCli(['validate', path.join(repoRoot, 'tasks/custom-dev')]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/5 file\(s\) checked: 5 valid, 0 invalid/);
  });

  it('rejects an unknown key with file, line and field', async () => {
    const file = await writeTask('unknown-key', `${validTask}colour: blue\n`);
    const run = await runCli(['validate', file]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(`${file}:13:1`);
    expect(run.stdout).toMatch(/colour/);
  });

  it('rejects a wrong type naming the field and what was expected', async () => {
    const file = await writeTask('wrong-type', validTask.replace('timeout_sec: 60', 'timeout_sec: soon'));
    const run = await runCli(['validate', file]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:10:\\d+: environment\\.timeout_sec`));
    expect(run.stdout).toMatch(/soon/);
  });

  it('rejects spec version 2.0 and lists the supported versions', async () => {
    const file = await writeTask('version', validTask.replace('"1.0"', '"2.0"'));
    const run = await runCli(['validate', file]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/task_spec_version/);
    expect(run.stdout).toMatch(/1\.0/);
  });

  it('reports every error in every file, not only the first', async () => {
    const first = await writeTask('many-a', validTask.replace('timeout_sec: 60', 'timeout_sec: -1').replace('id: bad_input', 'id: 12'));
    const second = await writeTask('many-b', `${validTask}extra: 1\n`);
    const run = await runCli(['validate', first, second]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/environment\.timeout_sec/);
    expect(run.stdout).toMatch(/: id: /);
    expect(run.stdout).toMatch(/extra/);
    expect(run.stdout).toMatch(/2 file\(s\) checked: 0 valid, 2 invalid/);
  });

  it('exits non-zero with a one-line message for a missing file, without a stack trace', async () => {
    const run = await runCli(['validate', path.join(temporary.path, 'nope.yaml')]);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/nope\.yaml: no such file/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.skipIf(skipElizaScenarios)('reports exactly the two invalid scenario fixtures', async () => {
    const run = await runCli(['validate', sharedFixturePath('eliza-scenarios')]);
    expect(run.exitCode).toBe(1);
    const invalid = run.stdout.split('\n').filter((line) => line.startsWith('invalid'));
    expect(invalid).toHaveLength(2);
    expect(invalid.join('\n')).toMatch(/invalid-missing-fields\.scenario\.yaml/);
    expect(invalid.join('\n')).toMatch(/enhanced-demo\.scenario\.yaml/);
  });
});

describe('ab list-tasks and ab schema', () => {
  it('lists the bundled suite through the shared loader', async () => {
    const run = await runCli(['list-tasks', 'custom-dev', '--tasks', path.join(repoRoot, 'tasks')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(['toy_fail_pytest', 'toy_one_liner', 'toy_pass_pytest', 'toy_setup_fail', 'toy_timeout']);
  });

  it('names the existing suites when the suite is unknown', async () => {
    const run = await runCli(['list-tasks', 'no-such-suite', '--tasks', path.join(repoRoot, 'tasks')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/custom-dev/);
  });

  it.each(['task', 'scenario', 'matrix'])('prints the %s JSON Schema', async (format) => {
    const run = await runCli(['schema', format]);
    expect(run.exitCode).toBe(0);
    const schema = JSON.parse(run.stdout) as { type?: string; properties?: object };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(2);
  });

  it('rejects an unknown format with a usage message', async () => {
    const run = await runCli(['schema', 'teapot']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/teapot/);
  });

  it('prints help that lists every command', async () => {
    const run = await runCli(['--help']);
    expect(run.exitCode).toBe(0);
    for (const command of ['list-tasks', 'validate', 'schema', 'doctor', 'cleanup', 'image']) expect(run.stdout).toContain(command);
  });
});
