import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../test-support/closed-port.js';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';

// Issue 27, item 6: the offline LLM route from the repository root, and what a missing key or endpoint says.
const greetingScenario = path.join(repositoryRoot, 'fixtures/scenarios/greeting.scenario.yaml');
const greetingMatrix = path.join(repositoryRoot, 'fixtures/scenarios/greeting.matrix.yaml');

/** Every variable that gives the agent a key or an endpoint, unset ('' counts as unset). */
const NO_MODEL_SETTINGS = {
  OPENROUTER_API_KEY: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  AGENTBENCH_AGENT_API_KEY: '',
  AGENTBENCH_AGENT_BASE_URL: '',
};

describe('the offline LLM route', () => {
  let scratch: TemporaryDirectory;
  let restoreEnvironment: (() => void) | undefined;
  beforeAll(async () => {
    scratch = await createTemporaryDirectory();
  });
  afterEach(() => {
    restoreEnvironment?.();
    restoreEnvironment = undefined;
  });
  afterAll(async () => {
    await scratch.remove();
  });

  it('pnpm fake-llm-server, run from the repository root as the README says, serves the script', async () => {
    const script = await scratch.write('replies.json', JSON.stringify(['Hello from the fake server']));
    // Its own process group, so the server under pnpm goes with it.
    const child = spawn('pnpm', ['-s', 'fake-llm-server', '--script', script, '--port', '0', '--quiet'], { cwd: repositoryRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (printed += chunk));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const found = /listening on (http:\/\/\S+\/v1)/.exec(printed)?.[1];
          if (found !== undefined) resolve(found);
        });
        child.once('close', () => reject(new Error(`pnpm fake-llm-server ended before listening: ${printed}`)));
      });
      const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'demo', messages: [{ role: 'user', content: 'Hi' }] }) });
      expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content).toBe('Hello from the fake server');
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await closed;
    }
  });

  it('without a key, a scenario names OPENAI_BASE_URL (any OpenAI-compatible server, the fake one included) as a way out', async () => {
    restoreEnvironment = applyEnvironment(NO_MODEL_SETTINGS);
    const result = await runCli(['scenario', 'run', greetingScenario, '--out', path.join(scratch.path, 'scenario')]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'ab: no API key for the agent at https://openrouter.ai/api/v1: set AGENTBENCH_AGENT_API_KEY (or OPENROUTER_API_KEY), ' +
        'or point OPENAI_BASE_URL at any OpenAI-compatible server, the fake one included (pnpm fake-llm-server --script replies.json; a loopback server needs no key)\n',
    );
  });

  it('without a key, a matrix is refused once, before any of its 8 runs starts', async () => {
    restoreEnvironment = applyEnvironment(NO_MODEL_SETTINGS);
    const out = path.join(scratch.path, 'matrix-no-key');
    const result = await runCli(['scenario', 'matrix', greetingMatrix, '--out', out]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^ab: no API key for the agent at https:\/\/openrouter\.ai\/api\/v1: .*OPENAI_BASE_URL.*\n$/);
    expect(result.stderr).not.toContain('matrix:');
    expect(result.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('with an endpoint that does not answer, a matrix is refused once, naming it', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}/v1`;
    restoreEnvironment = applyEnvironment({ ...NO_MODEL_SETTINGS, OPENAI_BASE_URL: endpoint });
    const out = path.join(scratch.path, 'matrix-no-endpoint');
    const result = await runCli(['scenario', 'matrix', greetingMatrix, '--out', out]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `ab: the agent's endpoint ${endpoint} does not answer (ECONNREFUSED): no run was started. ` +
        'Start the server it names, or point OPENAI_BASE_URL at one that runs (the fake one: pnpm fake-llm-server --script replies.json)\n',
    );
    expect(existsSync(out)).toBe(false);
  });
});
