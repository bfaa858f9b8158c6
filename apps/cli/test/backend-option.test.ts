import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopFixture, FIXING_PATCH, type LoopFixture } from '../../../packages/agent-loop/test/fixtures.js';
import { runCli } from './run-cli.js';

let scratch: string;
let fixture: LoopFixture | undefined;
beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ab-backend-'));
});
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
  await rm(scratch, { recursive: true, force: true });
});

describe('--backend (the sandbox registry\'s names)', () => {
  it('offers the registered backends in the help of run-task and run-agent', async () => {
    for (const command of ['run-task', 'run-agent']) {
      const help = await runCli([command, '--help']);
      const words = help.stdout.replace(/\s+/g, ' ');
      expect(words).toContain('--backend Sandbox backend of every sandbox the attempt makes: docker (container), bwrap (namespaces), local (no isolation)');
      expect(words).toMatch(/\[choices: "docker", "bwrap", "local"\] \[default: "docker"\]/);
    }
  });

  it('refuses a name no backend is registered under, listing the choices', async () => {
    const run = await runCli(['run-agent', '--task', 'task.yaml', '--backend', 'kubernetes']);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/Invalid values:\s+Argument: backend, Given: "kubernetes", Choices: "docker", "bwrap", "local"/);
  });

  it('runs a whole agent attempt on the named backend (local)', async () => {
    fixture = await createLoopFixture({ script: [{ tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } }] });
    const run = await runCli(['run-agent', '--task', path.join(fixture.root, 'task.yaml'), '--backend', 'local', '--out', scratch, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const { record } = JSON.parse(run.stdout) as { record: { result: { passed: boolean } } };
    expect(record.result.passed).toBe(true);
    // The local backend says, once, that it isolates nothing: the attempt did run on it.
    expect(run.stderr).toMatch(/no isolation/i);
  });
});
