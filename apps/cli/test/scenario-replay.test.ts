import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestedModel, startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const scenarios = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/scenarios');

interface ChatBody {
  messages: { role: string; content: string | null }[];
}

/** Agent, user simulator and judge of the billing conversation, by model name; each answer depends on the request alone. */
function startBillingLlm(): Promise<FakeLlmServer> {
  return startFakeLlmServer({
    script: (request) => {
      const body = request.body as ChatBody;
      const text = JSON.stringify(body.messages);
      switch (requestedModel(request)) {
        case 'agent-model':
          return body.messages.filter((message) => message.role === 'user').length === 1 ? 'Could you give me your order number?' : 'I have refunded the duplicate charge on order 1234.';
        case 'simulator-model':
          return text.includes('I have refunded') ? 'Thank you, that is resolved now!' : 'Sure, it is order 1234.';
        case 'judge-model':
          return { text: JSON.stringify({ judgment: 'yes', confidence: 0.9, reasoning: 'Refunded.' }), usage: { prompt_tokens: 40, completion_tokens: 8 } };
        default:
          return undefined;
      }
    },
  });
}

/** One or two lines, no stack trace: what a user error prints. */
function expectShortError(stderr: string): void {
  expect(stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('ab replay SCENARIO_RUN_DIR (local environment, fake LLM server on loopback)', () => {
  let folder: string;
  let server: FakeLlmServer | undefined;
  let scenarioFile: string;
  let envFile: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ab-scenario-replay-'));
    server = await startBillingLlm();
    // The billing conversation with our LLM agent given a system prompt, so a test can change it.
    scenarioFile = path.join(folder, 'billing.scenario.yaml');
    const fixture = await readFile(path.join(scenarios, 'conversation-satisfaction.scenario.yaml'), 'utf8');
    await writeFile(scenarioFile, `${fixture}agent:\n  type: llm\n  system_prompt: You are a billing assistant.\n`);
    envFile = path.join(folder, 'run.env');
    await writeFile(
      envFile,
      [
        `AGENTBENCH_AGENT_BASE_URL=${server.url}`,
        'AGENTBENCH_AGENT_MODEL=agent-model',
        'AGENTBENCH_SIMULATOR_MODEL=simulator-model',
        'AGENTBENCH_JUDGE_MODEL=judge-model',
        `AGENTBENCH_JUDGE_CACHE_DIR=${path.join(folder, 'judge-cache')}`,
        '',
      ].join('\n'),
    );
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  async function recordRun(): Promise<string> {
    const runDir = path.join(folder, 'run');
    const recorded = await runCli(['scenario', 'run', scenarioFile, '--env-file', envFile, '--out', runDir, '--seed', '11']);
    // The step's string_contains "welcome" fails: exit 1 with a FAILED verdict, every model call answered.
    expect(recorded.stdout).toContain('FAIL');
    await server?.close();
    server = undefined;
    return runDir;
  }

  it('replays offline with every role from the cassette: the same verdict and turns, exit 0', async () => {
    const runDir = await recordRun();
    const run = await runCli(['replay', runDir, '--out', path.join(folder, 'replay')]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('verdict: FAILED → FAILED (same)');
    expect(run.stdout).toContain('turns: the same inputs and replies in the same order');
    expect(run.stdout).toContain('same: the replay reproduced the run');
    expect(run.stdout).toContain(`replay: ${path.join(folder, 'replay')}`);
  });

  it('a changed system prompt: the divergence at agent step 1, the request diff, exit 1', async () => {
    const runDir = await recordRun();
    const edited = path.join(folder, 'edited.scenario.yaml');
    await writeFile(edited, (await readFile(scenarioFile, 'utf8')).replace('You are a billing assistant.', 'You are a terse billing assistant.'));
    const run = await runCli(['replay', runDir, '--scenario', edited, '--out', path.join(folder, 'replay')]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('replay diverged at agent step 1 (/chat/completions): the cassette holds no such request');
    expect(run.stdout).toMatch(/^\+.*You are a terse billing assistant\./m);
    expect(run.stdout).toContain('not the same: the replay did not reproduce the run');
  });

  it('a folder recorded before runs kept their settings: one line saying to re-record it, exit 1', async () => {
    const runDir = await recordRun();
    await rm(path.join(runDir, 'run-settings.json'));
    const run = await runCli(['replay', runDir]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^ab: .*this run was recorded before scenario runs kept their settings \(no run-settings\.json\).*re-record it with ab scenario run\n$/);
    expectShortError(run.stderr);
  });

  it('a truncated cassette line: the file and line named, exit 1', async () => {
    const runDir = await recordRun();
    const cassetteFile = path.join(runDir, 'cassette.jsonl');
    const text = await readFile(cassetteFile, 'utf8');
    await writeFile(cassetteFile, text.slice(0, text.trimEnd().lastIndexOf('\n') + 40));
    const run = await runCli(['replay', runDir]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^ab: .*cassette\.jsonl: line \d+: cut short/);
    expectShortError(run.stderr);
  });

  it('--variant belongs to agent attempts: a scenario run says to use --scenario', async () => {
    const runDir = await recordRun();
    const run = await runCli(['replay', runDir, '--variant', './agent.js']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--variant: ');
    expect(run.stderr).toContain('give the edited scenario file with --scenario');
  });
});
