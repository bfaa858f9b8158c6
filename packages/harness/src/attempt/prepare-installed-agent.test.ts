import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAgentChoice, prepareInstalledAgent } from './prepare-installed-agent.js';

const toyTask = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');
const limits = { maxSteps: 10, maxTimeSec: 600, repeatedFailureThreshold: 3 };
let loaded: LoadedTask;
beforeAll(async () => {
  loaded = await loadTask(toyTask);
});

describe('prepareInstalledAgent', () => {
  it('reads NAME and NAME@VERSION, and refuses anything else naming the flag', () => {
    expect(parseAgentChoice('codex')).toEqual({ name: 'codex' });
    expect(parseAgentChoice('claude-code@2.1.332')).toEqual({ name: 'claude-code', version: '2.1.332' });
    expect(() => parseAgentChoice('codex@')).toThrow('--agent: expected NAME or NAME@VERSION');
  });

  it('reads a path ending in .yaml, .yml or .json as a definition file, named by its file', () => {
    expect(parseAgentChoice('/defs/my-agent.yaml')).toEqual({ name: 'my-agent', file: '/defs/my-agent.yaml' });
    expect(parseAgentChoice('agents/other.yml')).toEqual({ name: 'other', file: path.resolve('agents/other.yml') });
    expect(parseAgentChoice('x.json').file).toBe(path.resolve('x.json'));
  });

  it('refuses, before installing anything, an agent without a model or without an upstream for its wire API', async () => {
    const attempt = { loaded, limits, environment: {}, mode: 'record' as const, gateway: { cassette: '/nonexistent/cassette.jsonl' }, upstream: undefined };
    await expect(prepareInstalledAgent({ agent: 'codex' }, { ...attempt, model: undefined })).rejects.toThrow('--agent codex: expected a model for the agent (--model NAME, or MODEL_NAME in the environment)');
    await expect(prepareInstalledAgent({ agent: 'claude-code' }, { ...attempt, model: 'claude-x', environment: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })).rejects.toThrow(
      '--agent claude-code: it speaks the anthropic API; set ANTHROPIC_BASE_URL (and ANTHROPIC_API_KEY)',
    );
    await expect(prepareInstalledAgent({ agent: 'codex' }, { ...attempt, model: 'gpt-5', mode: 'replay-then-live' })).rejects.toThrow('--then live is not supported');
  });
});
