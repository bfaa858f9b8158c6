import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRemoteRepositoryUrl, readInputFile } from '@agentbench/schemas';
import { ConfigurationError } from '@agentbench/schemas';

/** One `prefix → replacement` rewrite, like git's `url.<replacement>.insteadOf = <prefix>`. */
export interface MirrorRule {
  prefix: string;
  /** A remote URL, or an absolute local path (relative ones are resolved when the map is read). */
  replacement: string;
  /** Where the rule comes from: `AGENTBENCH_GIT_MIRRORS` or the config file's path. */
  origin: string;
}

export const MIRRORS_ENVIRONMENT_VARIABLE = 'AGENTBENCH_GIT_MIRRORS';
export const CONFIG_FILE_NAME = 'agentbench.config.json';

function resolveReplacement(replacement: string, baseDir: string, field: string): string {
  if (replacement.trim() === '') throw new ConfigurationError(field, 'the replacement is empty; expected a URL or a folder');
  if (isRemoteRepositoryUrl(replacement)) return replacement;
  const local = replacement.startsWith('file://') ? fileURLToPath(replacement) : path.resolve(baseDir, replacement);
  // Keep a trailing slash: it separates the prefix from the rest of the URL as written.
  return /[\\/]$/.test(replacement) && !local.endsWith(path.sep) ? `${local}${path.sep}` : local;
}

/**
 * Reads `AGENTBENCH_GIT_MIRRORS`: `prefix=replacement` pairs separated by `;` or newlines,
 * e.g. `https://github.com/=/srv/mirrors/github/`. The first `=` splits a pair. Relative
 * folders resolve against `baseDir` (the working directory).
 */
export function parseMirrorList(text: string, options: { baseDir: string; origin?: string }): MirrorRule[] {
  const origin = options.origin ?? MIRRORS_ENVIRONMENT_VARIABLE;
  const rules: MirrorRule[] = [];
  text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .forEach((entry, index) => {
      const separator = entry.indexOf('=');
      const field = `${origin} (entry ${index + 1}: "${entry}")`;
      if (separator <= 0) throw new ConfigurationError(field, 'expected prefix=replacement, e.g. https://github.com/=/srv/mirrors/github/');
      const prefix = entry.slice(0, separator).trim();
      rules.push({ prefix, replacement: resolveReplacement(entry.slice(separator + 1).trim(), options.baseDir, field), origin });
    });
  return rules;
}

/** Reads `{ "git": { "mirrors": { prefix: replacement } } }`; relative folders resolve against the file's folder. */
export function parseMirrorConfig(value: unknown, file: string): MirrorRule[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError(file, 'expected a JSON object such as { "git": { "mirrors": { "https://github.com/": "/srv/mirrors/github/" } } }');
  }
  const git = (value as { git?: unknown }).git;
  if (git === undefined) return [];
  if (typeof git !== 'object' || git === null || Array.isArray(git)) throw new ConfigurationError(`${file}: git`, 'expected an object with a "mirrors" field');
  const mirrors = (git as { mirrors?: unknown }).mirrors;
  if (mirrors === undefined) return [];
  if (typeof mirrors !== 'object' || mirrors === null || Array.isArray(mirrors)) {
    throw new ConfigurationError(`${file}: git.mirrors`, 'expected an object mapping URL prefixes to mirror URLs or folders');
  }
  return Object.entries(mirrors as Record<string, unknown>).map(([prefix, replacement]) => {
    const field = `${file}: git.mirrors["${prefix}"]`;
    if (prefix === '') throw new ConfigurationError(field, 'the prefix is empty');
    if (typeof replacement !== 'string') throw new ConfigurationError(field, `expected a string (URL or folder), found ${JSON.stringify(replacement)}`);
    return { prefix, replacement: resolveReplacement(replacement, path.dirname(file), field), origin: file };
  });
}

/**
 * The mirror map in effect: `AGENTBENCH_GIT_MIRRORS` first, then `agentbench.config.json` in
 * `cwd` (or `configFile`). When both name the same prefix the variable wins; otherwise the
 * longest matching prefix wins (see `applyMirrorMap`).
 */
export async function loadMirrorMap(options: { cwd?: string; env?: NodeJS.ProcessEnv; configFile?: string } = {}): Promise<MirrorRule[]> {
  const cwd = options.cwd ?? process.cwd();
  const environment = options.env ?? process.env;
  const fromEnvironment = parseMirrorList(environment[MIRRORS_ENVIRONMENT_VARIABLE] ?? '', { baseDir: cwd });
  const file = options.configFile ?? path.join(cwd, CONFIG_FILE_NAME);
  // Read like every other input file: a regular file, bounded, UTF-8 text. No file in `cwd` is no map.
  const read = await readInputFile(file);
  if (read.problem !== undefined && (options.configFile !== undefined || read.problem.kind !== 'not_found')) {
    const position = read.problem.line === undefined ? '' : ` (line ${read.problem.line}, column ${read.problem.column ?? 1})`;
    throw new ConfigurationError(file, `cannot read the config file: ${read.problem.message}${position}`);
  }
  const text = read.text;
  let fromFile: MirrorRule[] = [];
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ConfigurationError(file, `not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    fromFile = parseMirrorConfig(parsed, file);
  }
  const prefixes = new Set(fromEnvironment.map((rule) => rule.prefix));
  return [...fromEnvironment, ...fromFile.filter((rule) => !prefixes.has(rule.prefix))];
}

/** The URL after the longest matching prefix is replaced (unchanged when no rule matches). */
export function applyMirrorMap(url: string, rules: readonly MirrorRule[]): { url: string; rule?: MirrorRule } {
  let best: MirrorRule | undefined;
  for (const rule of rules) {
    if (url.startsWith(rule.prefix) && (best === undefined || rule.prefix.length > best.prefix.length)) best = rule;
  }
  if (best === undefined) return { url };
  return { url: best.replacement + url.slice(best.prefix.length), rule: best };
}
