import { PluginLoadError } from '../errors/plugin-load-error.js';
import { loadPlugins } from './load-plugins.js';
import type { Scanner } from '../scanners/scanner.js';

export interface LoadScannersOptions {
  /** Where the references (paths, package names) resolve from. Default `process.cwd()`. */
  cwd?: string;
  /** The flag they came from, named in messages. Default `--scanner`. */
  flag?: string;
}

/**
 * The scanners of the plugins named (a path or a package name each), loaded by the plugin loader
 * with its rules: a plugin not installed, not found, throwing on import, without a valid default
 * export, clashing with another or with a built-in rule, stops here with a `PluginLoadError` or a
 * `PluginConflictError`. A plugin that offers no scanner is refused too: it was named for its scanners.
 */
export async function loadScanners(references: readonly string[], options: LoadScannersOptions = {}): Promise<Scanner[]> {
  if (references.length === 0) return [];
  const cwd = options.cwd ?? process.cwd();
  const flag = options.flag ?? '--scanner';
  const set = await loadPlugins([], { baseDir: cwd, cwd, fromCli: references, cliFlag: flag, configFile: false });
  for (const plugin of set.plugins) {
    if ((plugin.definition.scanners ?? []).length === 0) {
      const reference = plugin.requests[0]?.reference ?? plugin.name;
      throw new PluginLoadError(reference, `plugin "${reference}" (from ${flag}) at ${plugin.resolvedPath} offers no scanner (expected \`definePlugin({ name, version, scanners: [defineScanner({ name, scan })] })\`)`, {
        resolvedPath: plugin.resolvedPath,
      });
    }
  }
  return [...set.scanners.values()].map((contribution) => contribution.item);
}
