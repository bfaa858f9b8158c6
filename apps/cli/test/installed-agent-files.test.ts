// `--agent ./my-agent.yaml` and `--instruction-template FILE`: a mistake in either file is reported
// before anything runs, naming the file (and the line and field), with no stack and no attempt
// folder left. (That they are used, end to end, is in installed-agent-through-ab.ts.)
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';
import { toyTaskFile } from './toy-tasks.js';

const DEFINITION = 'name: my-agent\ndescription: mine\nwire_api: chat\ncommand: ["sh", "-c", "cat \\"$AGENTBENCH_INSTRUCTION_FILE\\""]\noutput: { format: text }\n';

let scratch: TemporaryDirectory;
let restoreEnvironment: () => void = () => undefined;
beforeEach(async () => {
  scratch = await createTemporaryDirectory();
  // The gateway's upstream for a chat agent; nothing is sent to it (every run here stops first).
  restoreEnvironment = applyEnvironment({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-unused' });
});
afterEach(async () => {
  restoreEnvironment();
  await scratch.remove();
});

/** `ab run-agent` with the toy task and these flags; the output folder must stay empty. */
async function runAgent(flags: string[]): Promise<{ exitCode: number; stderr: string }> {
  const out = path.join(scratch.path, 'out');
  const run = await runCli(['run-agent', '--task', toyTaskFile('toy_fail_pytest'), '--model', 'fake-model', '--out', out, ...flags], { cwd: scratch.path });
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(await readdir(out).catch(() => [])).toEqual([]);
  return run;
}

describe('--agent FILE and --instruction-template FILE: mistakes named before anything runs', () => {
  it('names a definition file that does not exist, and the file, line and field of one that is not valid', async () => {
    const missing = await runAgent(['--agent', './agents/nope.yaml']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(path.join(scratch.path, 'agents/nope.yaml'));
    const file = await scratch.write('agents/my-agent.yaml', DEFINITION.replace('wire_api: chat', 'wire_api: grpc'));
    const invalid = await runAgent(['--agent', './agents/my-agent.yaml']);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.stderr).toContain(`${file}:3:`);
    expect(invalid.stderr).toContain('wire_api');
    const renamed = await scratch.write('agents/other-name.yaml', DEFINITION);
    const misnamed = await runAgent(['--agent', renamed]);
    expect(misnamed.stderr).toContain(`${renamed}:1:`);
    expect(misnamed.stderr).toContain('name: expected "other-name", the file\'s name without its extension');
  });

  it('names an instruction template that does not exist, and the line of an unknown value in one', async () => {
    await scratch.write('agents/my-agent.yaml', DEFINITION);
    const missing = await runAgent(['--agent', './agents/my-agent.yaml', '--instruction-template', './nope.md']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(`${path.join(scratch.path, 'nope.md')}: cannot read the instruction template`);
    const template = await scratch.write('instruction.md', 'Fix {{task_id}}.\nRun {{test_comand}}.\n');
    const unknown = await runAgent(['--agent', './agents/my-agent.yaml', '--instruction-template', template]);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain(`${template}:2: unknown template value {{test_comand}}; expected one of {{workdir}}, {{task_id}}, {{test_command}}`);
  });

  it('refuses a template without an installed agent, and shows both flags in --help', async () => {
    const run = await runAgent(['--variant', 'scripted', '--instruction-template', 'instruction.md']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--instruction-template is the instruction of an installed agent');
    for (const command of ['run-agent', 'run', 'replay']) {
      const help = await runCli([command, '--help']);
      expect(help.stdout).toContain('--instruction-template');
      expect(help.stdout).toMatch(/definition file/);
    }
  });
});

describe('ab run --resume keeps the instruction: another template, or one edited since, is refused before anything runs', () => {
  it('names the flag, the recorded file and the given one; and an edited template or definition file', async () => {
    const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
    const agent = await scratch.write('agents/my-agent.yaml', DEFINITION);
    const template = await scratch.write('mine.md', 'Fix {{task_id}}.\n');
    const other = await scratch.write('other.md', 'Fix {{task_id}} now.\n');
    // The run.json of an `ab run --agent ./agents/my-agent.yaml --instruction-template mine.md` stopped before any attempt.
    const runJson = {
      run_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
      kind: 'agent',
      created_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:01.000Z',
      harness_version: '0.1.0',
      suite: 'custom-dev',
      task_ids: ['toy_fail_pytest'],
      options: { concurrency: 2, max_jobs: 4, resumed: false },
      status: 'interrupted',
      counts: { total: 1, passed: 0, failed: 0, errored: 0, skipped: 1 },
      plan: {
        version: 1,
        tasks: [{ id: 'toy_fail_pytest', file: toyTaskFile('toy_fail_pytest') }],
        models: ['fake-model'],
        runs: 1,
        variant: agent,
        agent,
        agent_definition: { file: agent, sha256: sha256(DEFINITION) },
        instruction_template: { file: template, sha256: sha256('Fix {{task_id}}.\n') },
        max_steps: null,
        retries: 2,
        skip_baseline: true,
        harness_version: '0.1.0',
      },
    };
    const runDir = path.join(scratch.path, 'run');
    const runFile = await scratch.write('run/run.json', `${JSON.stringify(runJson, null, 2)}\n`);
    const before = await readFile(runFile, 'utf8');
    const resume = async (flags: string[]): Promise<string> => {
      const run = await runCli(['run', '--resume', runDir, ...flags], { cwd: scratch.path });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      // Refused before the run folder is touched: no lock, no attempt, run.json as it was.
      expect((await readdir(runDir)).sort()).toEqual(['run.json']);
      expect(await readFile(runFile, 'utf8')).toBe(before);
      return run.stderr;
    };
    expect(await resume(['--instruction-template', other])).toContain(`(--instruction-template: the run has ${template}, this command asks for ${other})`);
    await writeFile(template, 'Fix {{task_id}} whatever it takes.\n');
    expect(await resume([])).toContain(`(--instruction-template: ${template} changed since the run started (sha256 ${sha256('Fix {{task_id}}.\n').slice(0, 12)}… then, ${sha256('Fix {{task_id}} whatever it takes.\n').slice(0, 12)}… now)`);
    await writeFile(template, 'Fix {{task_id}}.\n');
    await writeFile(agent, `${DEFINITION}# edited\n`);
    expect(await resume([])).toContain(`(--agent: ${agent} changed since the run started`);
  });
});
