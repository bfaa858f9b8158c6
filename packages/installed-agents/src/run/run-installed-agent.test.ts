import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSandbox, type Sandbox } from '@agentbench/sandbox';
import { findAgentDefinition } from '../definition/list-agent-definitions.js';
import type { AgentDefinition } from '../definition/load-agent-definition.js';
import { installAgent, type AgentInstallation } from '../install/install-agent.js';
import { runInstalledAgent } from './run-installed-agent.js';

// The generic command agent on the local backend (no engine needed): what the run gives every agent.
let sandbox: Sandbox;
let command: { definition: AgentDefinition; installation: AgentInstallation };

beforeAll(async () => {
  sandbox = await LocalSandbox.create({}, { isWarningSilenced: true });
  const definition = await findAgentDefinition('command');
  command = { definition, installation: await installAgent(definition) };
});
afterAll(async () => {
  await sandbox.dispose();
});

const base = { baseUrl: 'http://127.0.0.1:4010', model: 'fake-model', timeoutSec: 30 };

describe('runInstalledAgent', () => {
  it('passes the instruction as one word, gives it /dev/null as stdin (not a pipe, even a closed one), and leaves no HOME behind', async () => {
    const instruction = "Fix it; don't `rm -rf /`. $HOME\n\"quoted\"";
    const run = await runInstalledAgent({
      sandbox,
      ...command,
      // What fd 0 is: an agent that waits on an open stdin (codex) needs the null device itself, not whatever the backend hands over.
      definition: { ...command.definition, command: ['/bin/sh', '-c', 'printf "%s|" "$1"; readlink /proc/self/fd/0; cat; echo "|stdin-ended"; echo "$HOME" > home.txt', 'agent', '{instruction}'] },
      instruction,
      ...base,
    });
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, format: 'text' });
    expect(run.output).toBe(`${instruction}|/dev/null\n|stdin-ended\n`);
    const homes = (await readdir(tmpdir())).filter((name) => name.startsWith('agentbench-agent-home.'));
    const home = new TextDecoder().decode(await sandbox.readFile('home.txt')).trim();
    expect(home).toMatch(/^\/tmp\/agentbench-agent-home\.\w+$/);
    expect(homes).not.toContain(home.slice('/tmp/'.length));
  });

  it('fills the command agent\'s env and instruction file, and refuses it without a command line', async () => {
    const run = await runInstalledAgent({ sandbox, ...command, instruction: 'the task', ...base, command: 'cat "$AGENTBENCH_INSTRUCTION_FILE"; echo " $OPENAI_BASE_URL $ANTHROPIC_BASE_URL $OPENAI_API_KEY"' });
    expect(run.output).toBe('the task http://127.0.0.1:4010/v1 http://127.0.0.1:4010 agentbench-gateway-adds-the-key\n');
    await expect(runInstalledAgent({ sandbox, ...command, instruction: 'x', ...base })).rejects.toThrow('agent "command" runs the command line you give: pass command');
  });

  it('refuses a model name that would break a config file, and a base URL that is not one', async () => {
    await expect(runInstalledAgent({ sandbox, ...command, instruction: 'x', ...base, command: 'true', model: 'gpt"\nevil = 1' })).rejects.toThrow(/^model: expected a model name/);
    await expect(runInstalledAgent({ sandbox, ...command, instruction: 'x', ...base, command: 'true', baseUrl: '127.0.0.1:4010' })).rejects.toThrow(/baseUrl: expected an http or https URL|baseUrl: expected the model endpoint/);
  });
});
