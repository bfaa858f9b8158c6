// `--agent ./my-agent.yaml` and `--instruction-template FILE`: a mistake in either file is reported
// before anything runs, naming the file (and the line and field), with no stack and no attempt
// folder left. (That they are used, end to end, is in installed-agent-through-ab.ts.)
import { readdir } from 'node:fs/promises';
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
