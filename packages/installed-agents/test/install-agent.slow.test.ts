import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../test-support/closed-port.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { loadAgentDefinition, type AgentDefinition } from '../src/definition/load-agent-definition.js';
import { installAgent } from '../src/install/install-agent.js';

// The npm registry for real, with a package of a few kilobytes standing in for an agent (the real
// agents, hundreds of MB, are installed once by the Docker test).
let scratch: TemporaryDirectory;
let definition: AgentDefinition;
const INTEGRITY = 'sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==';

beforeAll(async () => {
  scratch = await createTemporaryDirectory();
  const file = await scratch.write(
    'definitions/tiny-agent.yaml',
    [
      'name: tiny-agent',
      'description: a tiny npm package standing in for an agent',
      'package: is-number',
      'version: 7.0.0',
      `integrity: ${INTEGRITY}`,
      'binary: node_modules/is-number/index.js',
      'wire_api: chat',
      'command: ["{binary}", "{instruction}"]',
      'output: { format: text }',
      '',
    ].join('\n'),
  );
  definition = await loadAgentDefinition(file);
});
afterAll(async () => {
  await scratch.remove();
});

describe('installAgent from the npm registry', () => {
  it('installs into NAME/VERSION of the cache with a checksummed record, then reuses it', async () => {
    const cacheFolder = path.join(scratch.path, 'cache');
    const first = await installAgent(definition, { cacheFolder });
    expect(first).toMatchObject({ status: 'installed', version: '7.0.0', folder: path.join(cacheFolder, 'tiny-agent', '7.0.0') });
    expect(first.mounts).toEqual([{ hostPath: first.folder, sandboxPath: '/opt/agentbench/agent' }]);
    expect(first.binary).toBe('/opt/agentbench/agent/node_modules/is-number/index.js');
    expect(await readdir(first.folder ?? '')).toEqual(expect.arrayContaining(['agentbench-install.json', 'node_modules', 'package-lock.json']));
    // Nothing but the install beside it: the staging folder was renamed into place.
    expect(await readdir(path.join(cacheFolder, 'tiny-agent'))).toEqual(['7.0.0']);
    const again = await installAgent(definition, { cacheFolder });
    expect(again.status).toBe('reused');
  });

  it('refuses a cached install whose files changed, naming the file, and --force installs it again', async () => {
    const cacheFolder = path.join(scratch.path, 'corrupted-cache');
    const installed = await installAgent(definition, { cacheFolder });
    await writeFile(path.join(installed.folder ?? '', 'node_modules/is-number/index.js'), 'module.exports = () => true;\n');
    // Another process (a fresh CLI run) verifies the files: this one remembers it already did.
    const { verifyInstall } = await freshInstallModule();
    await expect(verifyInstall(installed.folder ?? '', 'is-number@7.0.0')).rejects.toThrow('does not match the checksums recorded when it was installed: node_modules/is-number/index.js changed');
    const forced = await installAgent(definition, { cacheFolder, isForced: true });
    expect(forced.status).toBe('installed');
    await expect((await freshInstallModule()).verifyInstall(forced.folder ?? '', 'is-number@7.0.0')).resolves.toBeUndefined();
  });

  it('says which definition names a binary the install does not have', async () => {
    const cacheFolder = path.join(scratch.path, 'cache');
    const wrong = { ...definition, binary: 'node_modules/is-number/bin/is-number' };
    await expect(installAgent(wrong, { cacheFolder })).rejects.toThrow(`${definition.file}: binary: node_modules/is-number/bin/is-number is not in the install of is-number@7.0.0`);
  });

  it('refuses a package whose integrity is not the pinned one, leaving nothing in the cache', async () => {
    const cacheFolder = path.join(scratch.path, 'wrong-integrity-cache');
    const wrong = { ...definition, integrity: `sha512-${'A'.repeat(86)}==` };
    await expect(installAgent(wrong, { cacheFolder })).rejects.toThrow(`is-number@7.0.0 from the registry has the integrity ${INTEGRITY}, not sha512-AAAA`);
    expect(await readdir(path.join(cacheFolder, 'tiny-agent'))).toEqual([]);
  });

  it('says clearly that npm cannot reach the registry, leaving nothing half-installed', async () => {
    const cacheFolder = path.join(scratch.path, 'offline-cache');
    const registry = `http://127.0.0.1:${await closedPort()}/`;
    const previous = process.env['npm_config_fetch_retries'];
    process.env['npm_config_fetch_retries'] = '0';
    try {
      await expect(installAgent(definition, { cacheFolder, registry, version: '6.0.0' })).rejects.toThrow(`npm could not reach the registry ${registry} to install is-number@6.0.0`);
    } finally {
      if (previous === undefined) delete process.env['npm_config_fetch_retries'];
      else process.env['npm_config_fetch_retries'] = previous;
    }
    expect(await readdir(path.join(cacheFolder, 'tiny-agent'))).toEqual([]);
  });
});

/** The install module as a new process loads it: without the folders this process already verified. */
async function freshInstallModule(): Promise<typeof import('../src/install/install-package.js')> {
  const { vi } = await import('vitest');
  vi.resetModules();
  return import('../src/install/install-package.js');
}
