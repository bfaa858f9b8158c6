import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopFixture, type LoopFixture } from '../../test/fixtures.js';
import { ScriptedAgent } from './scripted-agent.js';
import { AgentLoadError } from '../errors/agent-load-error.js';
import { LlmAgent } from '../llm/llm-agent.js';
import { loadAgent } from './load-agent.js';

let folder: string;
let fixture: LoopFixture | undefined;

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'load-agent-test-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
  await fixture?.cleanup();
  fixture = undefined;
});

const agentModule = `export default (options) => ({
  name: 'mine',
  options,
  async nextAction() { return { kind: 'stop', reason: 'gave_up', message: 'custom' }; },
});
`;

async function loadError(variant: string, baseDir = folder): Promise<AgentLoadError> {
  const error = await loadAgent(variant, { baseDir }).catch((thrown: unknown) => thrown);
  expect(AgentLoadError.isInstance(error)).toBe(true);
  return error as AgentLoadError;
}

describe('loadAgent', () => {
  it('builds the scripted agent from the task script, or from a --script file', async () => {
    fixture = await createLoopFixture({ script: [{ tool: 'read_file', args: { path: 'status.txt' } }] });
    const fromTask = await loadAgent('scripted', { task: fixture.task });
    expect(fromTask.agent).toBeInstanceOf(ScriptedAgent);
    expect(fromTask.variant).toBe('scripted');
    const action = await fromTask.agent.nextAction({} as never, new AbortController().signal);
    expect(action).toEqual({ kind: 'tool_calls', calls: [{ tool: 'read_file', params: { path: 'status.txt' } }] });

    const scriptFile = path.join(folder, 'script.yaml');
    await writeFile(scriptFile, '- tool: list_files\n- tool: search\n  args: { query: fixed }\n');
    const fromFile = await loadAgent('scripted', { task: fixture.task, scriptFile });
    const calls = [];
    for (let index = 0; index < 3; index += 1) calls.push(await fromFile.agent.nextAction({} as never, new AbortController().signal));
    expect(calls).toEqual([
      { kind: 'tool_calls', calls: [{ tool: 'list_files', params: {} }] },
      { kind: 'tool_calls', calls: [{ tool: 'search', params: { query: 'fixed' } }] },
      { kind: 'stop', reason: 'done', message: expect.stringContaining('has no more calls') as string },
    ]);
  });

  it('reports a task without a script, and a bad script file with its line and field', async () => {
    fixture = await createLoopFixture();
    await expect(loadAgent('scripted', { task: fixture.task })).rejects.toThrow(/script: the scripted agent needs a script: .*task.yaml has neither agent.script nor agent.script_file/);
    const scriptFile = path.join(folder, 'bad.yaml');
    await writeFile(scriptFile, '- tool: list_files\n- tool: delete_everything\n');
    await expect(loadAgent('scripted', { task: fixture.task, scriptFile })).rejects.toThrow(/bad\.yaml:2:9: \[1\]\.tool: /);
    await expect(loadAgent('scripted', { scriptFile: path.join(folder, 'missing.yaml') })).rejects.toThrow(/cannot read script file .*missing.yaml: file not found/);
  });

  it('builds the LLM agent for llm and its alias llm_v0, and needs a key', async () => {
    const environment = { OPENROUTER_API_KEY: 'sk-or-test' };
    const loaded = await loadAgent('llm_v0', { environment, model: 'openai/gpt-4o-mini' });
    expect(loaded.agent).toBeInstanceOf(LlmAgent);
    expect(loaded.variant).toBe('llm');
    expect(loaded.agent.modelConfig).toMatchObject({ provider: 'openrouter', name: 'openai/gpt-4o-mini' });
    await expect(loadAgent('llm', { environment: {} })).rejects.toThrow(/OPENROUTER_API_KEY: not set/);
  });

  it('loads a custom agent from a relative .mjs file, passing the options to its factory', async () => {
    await writeFile(path.join(folder, 'my-agent.mjs'), agentModule);
    const loaded = await loadAgent('./my-agent.mjs', { baseDir: folder, model: 'x' });
    expect(loaded.agent.name).toBe('mine');
    expect(loaded.source).toBe(path.join(folder, 'my-agent.mjs'));
    expect((loaded.agent as unknown as { options: Record<string, unknown> }).options).toMatchObject({ model: 'x' });
  });

  it('loads a custom agent from an installed ESM package by name', async () => {
    const packageDir = path.join(folder, 'node_modules', '@acme', 'agent');
    await mkdir(packageDir, { recursive: true });
    await writeFile(path.join(packageDir, 'package.json'), JSON.stringify({ name: '@acme/agent', type: 'module', exports: { '.': { import: './main.js' } } }));
    await writeFile(path.join(packageDir, 'main.js'), agentModule);
    const nested = path.join(folder, 'project', 'sub');
    await mkdir(nested, { recursive: true });
    expect((await loadAgent('@acme/agent', { baseDir: nested })).agent.name).toBe('mine');
  });

  it('passes a ConfigurationError from a factory on as it is (it already names the setting), also one from another copy of schemas', async () => {
    const marker = "Symbol.for('agentbench.configuration-error')";
    await writeFile(path.join(folder, 'needs-key.mjs'), `export default () => { throw Object.assign(new Error('MY_AGENT_KEY: not set'), { [${marker}]: true }); };\n`);
    const error = await loadAgent('./needs-key.mjs', { baseDir: folder }).catch((thrown: unknown) => thrown);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect(AgentLoadError.isInstance(error)).toBe(false);
    expect((error as Error).message).toBe('MY_AGENT_KEY: not set');
  });

  it('explains each way a custom agent can fail to load', async () => {
    expect((await loadError('./nope.js')).message).toMatch(/agent "\.\/nope\.js": file .*nope\.js not found/);
    expect((await loadError('not-a-package')).message).toMatch(/unknown variant: not a built-in \(scripted, llm, llm_v0\) and no package of that name is installed/);

    await writeFile(path.join(folder, 'named.mjs'), 'export const helper = 1;\n');
    expect((await loadError('./named.mjs')).message).toMatch(/has no usable export: expected a default export \(options\) => Agent, found exports helper/);

    await writeFile(path.join(folder, 'wrong.mjs'), 'export default () => ({ name: 3 });\n');
    expect((await loadError('./wrong.mjs')).message).toMatch(/its factory returned an object with keys name; expected an agent/);

    await writeFile(path.join(folder, 'throws.mjs'), "export default () => { throw new Error('no credentials'); };\n");
    expect((await loadError('./throws.mjs')).message).toMatch(/its factory threw: no credentials/);

    await writeFile(path.join(folder, 'syntax.mjs'), 'export default (;\n');
    expect((await loadError('./syntax.mjs')).message).toMatch(/cannot import .*syntax\.mjs/);

    await mkdir(path.join(folder, 'dir.js'));
    expect((await loadError('./dir.js')).message).toMatch(/is not a file/);
  });
});
