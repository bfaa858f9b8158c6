import { truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadScenario } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { createEvaluationContext } from '../src/context/evaluation-context.js';
import { ConfigFileError } from '../src/errors/config-file-error.js';
import { PluginConflictError } from '../src/errors/plugin-conflict-error.js';
import { PluginLoadError } from '../src/errors/plugin-load-error.js';
import { PluginVersionError } from '../src/errors/plugin-version-error.js';
import { loadPlugins, resolvePlugins } from '../src/plugins/load-plugins.js';
import { createEvaluatorRegistry } from '../src/registry/evaluator-registry.js';
import { brokenPluginDir, elizaScenariosDir, elizaScenariosSkipReason, examplePluginDir } from './helpers/paths.js';

const skipElizaScenarios = elizaScenariosSkipReason('plugins.test.ts') !== undefined;
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

const directory = useTemporaryDirectory();

const exampleEntry = path.join(examplePluginDir, 'src/index.js');

function scenarioWithPlugins(pluginsYaml: string, evaluationsYaml = '      - type: word_count\n        min: 2\n        max: 5\n'): string {
  return `name: Plugin scenario
description: uses the example plugin
plugins:
${pluginsYaml}
environment:
  type: local
run:
  - input: say something short
    evaluations:
${evaluationsYaml}judgment:
  strategy: all_pass
`;
}

/** Loads a scenario file and its plugins the way the runner will, with no config file. */
async function loadWithPlugins(file: string, options: { fromCli?: string[]; cwd?: string } = {}) {
  const loaded = await loadScenario(file);
  const plugins = await loadPlugins(loaded.scenario.plugins, { baseDir: loaded.dir, scenarioFile: loaded.file, configFile: false, ...options });
  return { loaded, plugins };
}

/** A plugin module in the temp folder that reuses the example's evaluator under other names. */
async function writeCopycat(relativePath: string, body: string): Promise<string> {
  return directory.write(relativePath, `import example from ${JSON.stringify(pathToFileURL(exampleEntry).href)};\nconst [wordCount] = example.evaluators;\n${body}\n`);
}

describe('loading the example plugin', () => {
  it('loads it by relative path from a scenario file and runs its evaluator end to end', async () => {
    const scenarioDir = path.join(directory.path, 'scenarios');
    const relative = path.relative(scenarioDir, examplePluginDir);
    const file = await directory.write('scenarios/short.scenario.yaml', scenarioWithPlugins(`  - ${JSON.stringify(relative)}`));
    const { loaded, plugins } = await loadWithPlugins(file);
    expect(plugins.plugins.map((plugin) => [plugin.name, plugin.version, plugin.resolvedPath])).toEqual([['@agentbench/evaluator-example', '1.2.0', exampleEntry]]);

    const registry = createEvaluatorRegistry({ plugins });
    expect(registry.sourceOf('word_count')).toBe(`plugin "@agentbench/evaluator-example" 1.2.0 (${exampleEntry})`);
    expect(registry.validateScenario(loaded)).toEqual([]);
    const [evaluation] = loaded.scenario.run[0]!.evaluations;
    const pass = await registry.evaluate(evaluation, createEvaluationContext({ response: 'Three short words.' }));
    expect(pass).toMatchObject({ type: 'word_count', success: true, message: '3 words (min 2, max 5)' });
    const fail = await registry.evaluate(evaluation, createEvaluationContext({ response: 'one' }));
    expect(fail).toMatchObject({ success: false, message: '1 words, fewer than 2 (min 2, max 5)' });
  });

  it('loads it by package name through node_modules of the scenario folder, checking the version', async () => {
    await directory.link('project/node_modules/@agentbench/evaluator-example', examplePluginDir);
    const file = await directory.write('project/scenarios/short.scenario.yaml', scenarioWithPlugins('  - name: "@agentbench/evaluator-example"\n    version: "^1.1.0"\n    config:\n      level: 2'));
    const { plugins } = await loadWithPlugins(file);
    const [plugin] = plugins.plugins;
    expect(plugin).toMatchObject({ name: '@agentbench/evaluator-example', resolvedPath: exampleEntry, config: { level: 2 } });
    expect([...plugins.evaluators.keys()]).toEqual(['word_count']);
  });

  it('reports plugin parameter mistakes at their line in the scenario', async () => {
    const relative = path.relative(directory.path, examplePluginDir);
    const file = await directory.write('bad.scenario.yaml', scenarioWithPlugins(`  - ${JSON.stringify(relative)}`, '      - type: word_count\n        min: 9\n        max: 2\n'));
    const { loaded, plugins } = await loadWithPlugins(file);
    const issues = createEvaluatorRegistry({ plugins }).validateScenario(loaded);
    expect(issues.map((issue) => `${issue.line}:${issue.column} ${issue.path}: ${issue.message}`)).toEqual(['11:14 run[0].evaluations[0].min: expected min <= max']);
  });

  it('refuses a version the plugin does not satisfy', async () => {
    await directory.link('node_modules/@agentbench/evaluator-example', examplePluginDir);
    const file = await directory.write('v.scenario.yaml', scenarioWithPlugins('  - name: "@agentbench/evaluator-example"\n    version: "2.0.0"'));
    const error = await loadWithPlugins(file).catch((caught: unknown) => caught);
    expect(PluginVersionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `plugin "@agentbench/evaluator-example" (listed in ${file}) asks for version 2.0.0, but ${exampleEntry} declares "@agentbench/evaluator-example" 1.2.0`,
    );
  });

  it('loads a plugin named by the scenario and by --plugin once', async () => {
    const relative = path.relative(directory.path, examplePluginDir);
    const file = await directory.write('twice.scenario.yaml', scenarioWithPlugins(`  - ${JSON.stringify(relative)}`));
    const { plugins } = await loadWithPlugins(file, { fromCli: [examplePluginDir], cwd: directory.path });
    expect(plugins.plugins).toHaveLength(1);
    expect(plugins.plugins[0]?.requests.map((request) => request.source)).toEqual(['scenario', 'cli']);
  });
});

describe('plugins that fail to load stop the run', () => {
  it('a plugin that throws on import: PluginLoadError naming the reference, the resolved path and the cause', async () => {
    const relative = path.relative(directory.path, brokenPluginDir);
    const file = await directory.write('broken.scenario.yaml', scenarioWithPlugins(`  - ${JSON.stringify(relative)}`));
    const error = await loadWithPlugins(file).catch((caught: unknown) => caught);
    expect(PluginLoadError.isInstance(error)).toBe(true);
    const loadError = error as PluginLoadError;
    expect(loadError.reference).toBe(relative);
    expect(loadError.resolvedPath).toBe(path.join(brokenPluginDir, 'index.js'));
    expect(loadError.message).toBe(
      `cannot load plugin "${relative}" (listed in ${file}) from ${path.join(brokenPluginDir, 'index.js')}: importing it threw: broken-plugin fixture: this module fails on purpose while it is imported`,
    );
  });

  it('a module without a default export, or with an invalid one', async () => {
    await directory.write('plugins/named.mjs', 'export const plugin = { name: "x", version: "1.0.0" };\n');
    await directory.write('plugins/invalid.mjs', 'export default { name: "", version: "one", evaluators: [{ type: "Bad Type" }], extra: 1 };\n');
    const named = await loadPlugins(['./plugins/named.mjs'], { baseDir: directory.path, configFile: false }).catch((caught: unknown) => caught);
    expect((named as Error).message).toMatch(/: it has no default export \(expected `export default definePlugin\(\{ name, version, evaluators \}\)`; it exports plugin\)$/);
    const invalid = await loadPlugins(['./plugins/invalid.mjs'], { baseDir: directory.path, configFile: false }).catch((caught: unknown) => caught);
    expect((invalid as Error).message).toMatch(
      /: its default export is not a valid plugin: name: expected a non-empty string; version: expected a semantic version like "1\.0\.0", found "one"; extra: unknown field .*; evaluators: \[0\]: type: expected a lower-case name/,
    );
  });

  it('a path that does not exist', async () => {
    const error = await loadPlugins(['./nowhere'], { baseDir: directory.path, configFile: false }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(`cannot load plugin "./nowhere" (listed in ${directory.path}): its path does not exist: ${path.join(directory.path, 'nowhere')} does not exist`);
  });

  it.skipIf(skipElizaScenarios)('reports the not-installed plugins of a real scenario file without throwing, and refuses to load them', async () => {
    const loaded = await loadScenario(path.join(elizaScenariosDir, 'plugin-parsing-test.scenario.yaml'));
    const options = { baseDir: directory.path, scenarioFile: loaded.file, configFile: false as const };
    const resolutions = await resolvePlugins(loaded.scenario.plugins, options);
    expect(resolutions.map((resolution) => [resolution.reference, resolution.status, resolution.version])).toEqual([
      ['@elizaos/plugin-sql', 'not_installed', undefined],
      ['@elizaos/plugin-e2b', 'not_installed', undefined],
      ['@elizaos/plugin-openai', 'not_installed', '1.0.0'],
      ['@elizaos/plugin-github', 'disabled', undefined],
      ['@elizaos/plugin-bootstrap', 'not_installed', undefined],
    ]);
    expect(resolutions[0]?.message).toBe(`package @elizaos/plugin-sql is not installed (looked in node_modules from ${directory.path} upwards)`);
    await expect(loadPlugins(loaded.scenario.plugins, options)).rejects.toThrow(
      `cannot load plugin "@elizaos/plugin-sql" (listed in ${loaded.file}): it is not installed: package @elizaos/plugin-sql is not installed`,
    );
  });
});

describe('plugin clashes', () => {
  it('two plugins registering the same evaluator type: both are named', async () => {
    const copycat = await writeCopycat('copycat.mjs', 'export default { name: "copycat", version: "1.0.0", evaluators: [wordCount] };');
    const error = await loadPlugins([examplePluginDir, './copycat.mjs'], { baseDir: directory.path, configFile: false }).catch((caught: unknown) => caught);
    expect(PluginConflictError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `evaluator type "word_count" is registered by both plugin "@agentbench/evaluator-example" 1.2.0 (${exampleEntry}) and plugin "copycat" 1.0.0 (${copycat})`,
    );
  });

  it('a plugin overriding a built-in evaluator, and one plugin loaded from two places', async () => {
    const overrider = await writeCopycat('overrider.mjs', 'export default { name: "overrider", version: "1.0.0", evaluators: [{ ...wordCount, type: "string_contains" }] };');
    const twin = await writeCopycat('twin.mjs', 'export default { ...example, version: "0.9.0" };');
    const error = await loadPlugins(['./overrider.mjs', examplePluginDir, './twin.mjs'], { baseDir: directory.path, configFile: false }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(
      [
        'plugins clash:',
        `  - plugin "@agentbench/evaluator-example" is loaded twice: 1.2.0 from ${exampleEntry} and 0.9.0 from ${twin}; reference one of them only`,
        `  - plugin "overrider" 1.0.0 (${overrider}) registers evaluator type "string_contains", which is built in; give it another name (e.g. "overrider_string_contains")`,
        `  - evaluator type "word_count" is registered by both plugin "@agentbench/evaluator-example" 1.2.0 (${exampleEntry}) and plugin "@agentbench/evaluator-example" 0.9.0 (${twin})`,
      ].join('\n'),
    );
  });
});

describe('agentbench.config files', () => {
  it('loads the plugins of agentbench.config.json in the working directory, relative to it', async () => {
    await directory.write('agentbench.config.json', JSON.stringify({ plugins: [path.relative(directory.path, examplePluginDir)] }));
    const plugins = await loadPlugins([], { baseDir: path.join(directory.path, 'elsewhere'), cwd: directory.path });
    expect(plugins.plugins[0]?.requests[0]).toMatchObject({ source: 'config', origin: path.join(directory.path, 'agentbench.config.json') });
  });

  it('loads agentbench.config.mjs and skips disabled plugins', async () => {
    await directory.write('agentbench.config.mjs', `export default { plugins: [{ name: ${JSON.stringify(examplePluginDir)}, enabled: false }] };\n`);
    const plugins = await loadPlugins([], { baseDir: directory.path, cwd: directory.path });
    expect(plugins.plugins).toEqual([]);
    const resolutions = await resolvePlugins([], { baseDir: directory.path, cwd: directory.path });
    expect(resolutions.map((resolution) => resolution.status)).toEqual(['disabled']);
  });

  it('reads a JSON config like any input file: bounded, and UTF-8 text only', async () => {
    const file = await directory.write('agentbench.config.json', '{"plugins": []}');
    await truncate(file, 5 * 1024 * 1024);
    await expect(loadPlugins([], { baseDir: directory.path, cwd: directory.path })).rejects.toThrow(
      `${file}: cannot read it: file too large: it is 5 MiB (5,242,880 bytes); the limit for input files is 1 MiB`,
    );
    await writeFile(file, Buffer.from([0x7b, 0x0a, 0x00, 0x7d]));
    await expect(loadPlugins([], { baseDir: directory.path, cwd: directory.path })).rejects.toThrow(/: cannot read it: not a text file: control character U\+0000 found .* \(line 2, column 1\)$/);
  });

  it('refuses two config files, and an invalid one', async () => {
    await directory.write('agentbench.config.json', '{"plugins": 3}');
    await expect(loadPlugins([], { baseDir: directory.path, cwd: directory.path })).rejects.toThrow(
      `${path.join(directory.path, 'agentbench.config.json')}: is not valid: plugins: expected a list of plugin references`,
    );
    await directory.write('agentbench.config.js', 'export default {};\n');
    const error = await loadPlugins([], { baseDir: directory.path, cwd: directory.path }).catch((caught: unknown) => caught);
    expect(ConfigFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `${path.join(directory.path, 'agentbench.config.json')}: found agentbench.config.json and agentbench.config.js in ${directory.path}; keep one`,
    );
  });
});
