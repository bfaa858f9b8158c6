import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFakeLlmServerCli } from '../src/cli/run-cli.js';
import { loadScriptFile } from '../src/cli/load-script-file.js';
import type { FakeLlmServer } from '../src/index.js';

let directory: string;
let server: FakeLlmServer | undefined;
let stdout: string[];
let stderr: string[];
const output = { stdout: { write: (text: string) => stdout.push(text) }, stderr: { write: (text: string) => stderr.push(text) } };

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fake-llm-server-cli-'));
  stdout = [];
  stderr = [];
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(directory, { recursive: true, force: true });
});

async function writeScript(name: string, content: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const ask = async (client: OpenAI, model = 'demo') =>
  (await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] })).choices[0]?.message;

describe('fake-llm-server command', () => {
  it('serves the replies of a script file and prints its URL', async () => {
    const script = await writeScript('demo.json', ['Hello from the script.', { toolCalls: [{ name: 'list_files', arguments: {} }] }]);
    server = await runFakeLlmServerCli(['--script', script, '--port', '0'], output);
    expect(server).toBeDefined();
    expect(stdout.join('')).toBe(`fake-llm-server listening on ${server?.url} (2 replies from ${script})\n`);
    const client = new OpenAI({ apiKey: 'demo', baseURL: server?.url, maxRetries: 0 });
    expect((await ask(client))?.content).toBe('Hello from the script.');
    expect((await ask(client))?.tool_calls?.[0]).toMatchObject({ function: { name: 'list_files' } });
    expect(stderr).toEqual([
      'fake-llm-server: requests[0] POST /v1/chat/completions -> replied\n',
      'fake-llm-server: requests[1] POST /v1/chat/completions -> replied\n',
    ]);
  });

  it('reads models from an object script and loops with --loop', async () => {
    const script = await writeScript('loop.json', { replies: ['ping', 'pong'], models: ['demo-model'] });
    server = await runFakeLlmServerCli(['--script', script, '--loop', '--quiet'], output);
    const client = new OpenAI({ apiKey: 'demo', baseURL: server?.url, maxRetries: 0 });
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push((await ask(client))?.content);
    expect(answers).toEqual(['ping', 'pong', 'ping']);
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(['demo-model']);
    expect(stderr).toEqual([]);
  });

  it('prints the usage with --help and starts nothing', async () => {
    expect(await runFakeLlmServerCli(['--help'], output)).toBeUndefined();
    expect(stdout.join('')).toContain('Usage: fake-llm-server --script FILE.json');
  });

  it('requires --script', async () => {
    await expect(runFakeLlmServerCli(['--port', '0'], output)).rejects.toThrow('--script is required');
  });

  it('rejects a port that is not a number', async () => {
    const script = await writeScript('ok.json', ['x']);
    await expect(runFakeLlmServerCli(['--script', script, '--port', 'eighty'], output)).rejects.toThrow(
      '--port: expected an integer from 0 to 65535, found "eighty"',
    );
  });

  it('rejects an unknown option', async () => {
    await expect(runFakeLlmServerCli(['--scirpt', 'x.json'], output)).rejects.toThrow("Unknown option '--scirpt'");
  });
});

describe('loadScriptFile', () => {
  it('names a missing file', async () => {
    const path = join(directory, 'missing.json');
    await expect(loadScriptFile(path)).rejects.toThrow(`${path}: cannot read the script file: no such file`);
  });

  it('names the line and column of invalid JSON', async () => {
    const path = await writeScript('broken.json', '[\n  "one",\n  "two"\n  "three"\n]\n');
    await expect(loadScriptFile(path)).rejects.toThrow(`${path}: line 4, column 3: not valid JSON`);
  });

  it('names the file and the field of a bad reply', async () => {
    const path = await writeScript('bad.json', { replies: ['ok', { toolCalls: [{ name: 'run', arguments: 42 }] }] });
    await expect(loadScriptFile(path)).rejects.toThrow(
      `${path}: replies[1].toolCalls[0].arguments: expected an object or a raw string, found 42`,
    );
  });

  it('rejects an unknown top-level field', async () => {
    const path = await writeScript('typo.json', { replys: [] });
    await expect(loadScriptFile(path)).rejects.toThrow(`${path}: replys: unknown field; expected replies or models`);
  });
});
