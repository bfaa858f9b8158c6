import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginConflictError } from '../src/errors/plugin-conflict-error.js';
import { PluginLoadError } from '../src/errors/plugin-load-error.js';
import { loadScanners } from '../src/plugins/load-scanners.js';
import { scanChanges } from '../src/scanners/scan-changes.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { brokenPluginDir, examplePluginDir, scannerExampleDir } from './helpers/paths.js';

const directory = useTemporaryDirectory();

const PATCH = ['diff --git a/Makefile b/Makefile', '--- a/Makefile', '+++ b/Makefile', '@@ -1,1 +1,2 @@', ' test:', '+\tPYTEST_ADDOPTS=-x pytest', ''].join('\n');

describe('scanner plugins load like evaluator plugins', () => {
  it('loads the example by path and by package name, and its scanner runs beside the built-in rules', async () => {
    const byPath = await loadScanners([path.relative(directory.path, scannerExampleDir)], { cwd: directory.path });
    await directory.link('node_modules/@agentbench/scanner-example', scannerExampleDir);
    const byPackage = await loadScanners(['@agentbench/scanner-example'], { cwd: directory.path });
    expect(byPath.map((scanner) => scanner.name)).toEqual(['pytest-env-override']);
    expect(byPackage.map((scanner) => scanner.name)).toEqual(['pytest-env-override']);
    expect(await scanChanges({ patch: PATCH, scanners: byPackage })).toEqual([
      { rule: 'pytest-env-override', scanner: 'pytest-env-override', file: 'Makefile', line: 2, message: 'the diff sets PYTEST_ADDOPTS, which changes what pytest runs' },
    ]);
  });

  it('stops on a plugin that is not there, throws on import, or offers no scanner, naming --scanner', async () => {
    const missing = await loadScanners(['./nowhere'], { cwd: directory.path }).catch((caught: unknown) => caught);
    expect(PluginLoadError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toBe(`cannot load plugin "./nowhere" (from --scanner): its path does not exist: ${path.join(directory.path, 'nowhere')} does not exist`);
    const broken = await loadScanners([brokenPluginDir], { cwd: directory.path }).catch((caught: unknown) => caught);
    expect((broken as Error).message).toMatch(/^cannot load plugin ".*broken-plugin" \(from --scanner\) from .*index\.js: importing it threw: /);
    const evaluatorsOnly = await loadScanners([examplePluginDir], { cwd: directory.path }).catch((caught: unknown) => caught);
    expect(PluginLoadError.isInstance(evaluatorsOnly)).toBe(true);
    expect((evaluatorsOnly as Error).message).toMatch(/^plugin ".*evaluator-example" \(from --scanner\) at .*index\.js offers no scanner \(expected `definePlugin/);
  });

  it('refuses a scanner that takes a built-in rule’s name, or one that two plugins register', async () => {
    // Plain objects: the loader checks the shape itself, as it does for a plugin without definePlugin.
    const scannerModule = (name: string, plugin: string) => `export default { name: ${JSON.stringify(plugin)}, version: '1.0.0', scanners: [{ name: ${JSON.stringify(name)}, scan: () => [] }] };\n`;
    await directory.write('builtin-name.mjs', scannerModule('process-exit', 'takes-builtin'));
    await directory.write('one.mjs', scannerModule('same-name', 'one'));
    await directory.write('two.mjs', scannerModule('same-name', 'two'));
    const builtin = await loadScanners(['./builtin-name.mjs'], { cwd: directory.path }).catch((caught: unknown) => caught);
    expect(PluginConflictError.isInstance(builtin)).toBe(true);
    expect((builtin as Error).message).toContain('registers scanner "process-exit", which is built in');
    const twice = await loadScanners(['./one.mjs', './two.mjs'], { cwd: directory.path }).catch((caught: unknown) => caught);
    expect((twice as Error).message).toMatch(/^scanner "same-name" is registered by both plugin "one" 1\.0\.0 \(.*one\.mjs\) and plugin "two" 1\.0\.0 \(.*two\.mjs\)$/);
  });
});
