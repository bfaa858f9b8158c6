import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const toyTask = path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml');

const savedEnvironment = { ...process.env };
let scratch: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ab-run-agent-'));
  for (const name of ['OPENROUTER_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) delete process.env[name];
});

afterEach(async () => {
  process.env = { ...savedEnvironment };
  await rm(scratch, { recursive: true, force: true });
});

describe('ab run-agent (mistakes reported before anything runs)', () => {
  it('says which key is missing for the LLM agent, in one line', async () => {
    const run = await runCli(['run-agent', '--task', toyTask, '--variant', 'llm_v0', '--out', scratch]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^ab: OPENROUTER_API_KEY: not set: the llm agent calls OpenRouter by default/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('stops on a --scanner plugin that cannot load (ab run too), naming the flag, before any attempt folder exists', async () => {
    const agent = await runCli(['run-agent', '--task', toyTask, '--scanner', './no-scanner', '--fail-on-suspicion', '--out', scratch], { cwd: scratch });
    expect(agent.exitCode).toBe(1);
    expect(agent.stderr.trim()).toBe(`ab: cannot load plugin "./no-scanner" (from --scanner): its path does not exist: ${path.join(scratch, 'no-scanner')} does not exist`);
    const run = await runCli(['run', '--task', toyTask, '--scanner', './no-scanner', '--out', path.join(scratch, 'run')], { cwd: scratch });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('cannot load plugin "./no-scanner" (from --scanner): its path does not exist');
    expect(await readdir(scratch)).toEqual([]);
  });

  it('explains an agent file that does not exist and one without a usable export', async () => {
    const missing = await runCli(['run-agent', '--task', toyTask, '--variant', './nope.mjs', '--out', scratch], { cwd: scratch });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/ab: agent "\.\/nope\.mjs": file .*nope\.mjs not found/);

    await writeFile(path.join(scratch, 'named.mjs'), 'export const x = 1;\n');
    const named = await runCli(['run-agent', '--task', toyTask, '--variant', './named.mjs', '--out', scratch], { cwd: scratch });
    expect(named.stderr).toMatch(/has no usable export: expected a default export \(options\) => Agent/);
  });

  it('reports a bad task file with its position', async () => {
    const task = path.join(scratch, 'task.yaml');
    await writeFile(task, 'task_spec_version: "1.0"\nid: x\n');
    const run = await runCli(['run-agent', '--task', task]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/task\.yaml is not valid/);
  });

  it('needs --task', async () => {
    const run = await runCli(['run-agent']);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/Missing required argument: task/);
  });
});
