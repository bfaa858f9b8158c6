import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'ab-run-engines-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function enginesFile(name: string, engines: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify({ engines }));
  return file;
}

const suite = ['--suite', 'custom-dev', '--tasks', path.join(repoRoot, 'tasks')];
// ab run with the scripted agent refuses custom-dev first (three of its tasks have no script): the engine checks are under test here.
const scriptedTask = ['--task', path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml')];

describe('ab run / ab bench-models --engines: bad input is one clear line, exit 1, nothing written', () => {
  it('ab run refuses to start when an engine of the list does not answer', async () => {
    const file = enginesFile('unreachable.json', [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }]);
    const out = path.join(scratch, 'out-unreachable');
    const run = await runCli(['run', ...scriptedTask, '--out', out, '--engines', file]);
    expect(run.stderr).toMatch(/^ab: engine 'gone' \(tcp:\/\/127\.0\.0\.1:1\) does not answer: ECONNREFUSED[^\n]*\n$/);
    expect(run.exitCode).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('ab bench-models names the file, the field and the key meant for a typo in the engines file', async () => {
    const file = enginesFile('typo.json', [{ name: 'local', host: 'unix:///var/run/docker.sock', capcity: 2 }]);
    const out = path.join(scratch, 'out-typo');
    const run = await runCli(['bench-models', ...suite, '--models', 'openai/gpt-4o', '--out', out, '--engines', file]);
    expect(run.stderr).toBe(`ab: ${file}: engines[0]: unknown key 'capcity', did you mean 'capacity'?\n`);
    expect(run.exitCode).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('ab run takes the engines of ./agentbench.config.json without --engines', async () => {
    writeFileSync(path.join(scratch, 'agentbench.config.json'), JSON.stringify({ engines: [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }] }));
    const out = path.join(scratch, 'out-config');
    const run = await runCli(['run', ...scriptedTask, '--out', out], { cwd: scratch });
    expect(run.stderr).toMatch(/^ab: engine 'gone' \(tcp:\/\/127\.0\.0\.1:1\) does not answer/);
    expect(run.exitCode).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('ab run refuses --runtime with an engines list, naming both', async () => {
    const file = enginesFile('runtime.json', [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }]);
    const run = await runCli(['run', ...suite, '--out', path.join(scratch, 'out-runtime'), '--engines', file, '--runtime', 'runsc']);
    expect(run.stderr).toMatch(/^ab: --runtime cannot be combined with an engines list \(--engines or agentbench\.config\.json\)/);
    expect(run.exitCode).toBe(1);
  });
});
