import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isDirectory, isFile } from './path-checks.js';

/** Conditions Node applies when it imports an ES module. */
const ACTIVE_CONDITIONS = new Set(['node', 'import', 'module-sync', 'default']);

export type ModuleResolution =
  | { kind: 'resolved'; file: string; packageDir?: string; packageName?: string; packageVersion?: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'not_installed'; message: string }
  | { kind: 'invalid_package'; message: string; packageDir: string };

/** A path reference (relative, absolute or file: URL) rather than a package name. */
export function isPathReference(reference: string): boolean {
  return reference.startsWith('.') || reference.startsWith('/') || reference.startsWith('file:') || /^[A-Za-z]:[\\/]/.test(reference);
}

const PACKAGE_NAME = /^((?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*)(\/.+)?$/i;

interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
}

async function readPackageJson(directory: string): Promise<PackageJson | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null ? (value as PackageJson) : {};
  } catch {
    return undefined;
  }
}

/** Picks a target from an `exports` value the way Node does for `import` (string, condition object, fallback list). */
function conditionalTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const option of target) {
      const chosen = conditionalTarget(option);
      if (chosen !== undefined) return chosen;
    }
    return undefined;
  }
  if (typeof target === 'object' && target !== null) {
    for (const [condition, value] of Object.entries(target)) {
      if (!ACTIVE_CONDITIONS.has(condition)) continue;
      const chosen = conditionalTarget(value);
      if (chosen !== undefined) return chosen;
    }
  }
  return undefined;
}

function exportsTarget(exports: unknown, subpath: string): string | undefined {
  const isSubpathMap = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
  if (!isSubpathMap) return subpath === '.' ? conditionalTarget(exports) : undefined;
  return conditionalTarget((exports as Record<string, unknown>)[subpath]);
}

async function withExtensions(file: string): Promise<string | undefined> {
  for (const candidate of [file, `${file}.js`, `${file}.mjs`, path.join(file, 'index.js'), path.join(file, 'index.mjs')]) {
    if (await isFile(candidate)) return candidate;
  }
  return undefined;
}

/** The entry file of a package folder: `exports` (for `subpath`), else `main`, else `index.js`. */
async function packageEntry(directory: string, subpath: string): Promise<ModuleResolution> {
  const packageJson = await readPackageJson(directory);
  const identity = {
    packageDir: directory,
    ...(typeof packageJson?.name === 'string' ? { packageName: packageJson.name } : {}),
    ...(typeof packageJson?.version === 'string' ? { packageVersion: packageJson.version } : {}),
  };
  let target: string | undefined;
  if (packageJson?.exports !== undefined) {
    target = exportsTarget(packageJson.exports, subpath);
    if (target === undefined) {
      return { kind: 'invalid_package', packageDir: directory, message: `${path.join(directory, 'package.json')} exports nothing for "${subpath}" under the import/node/default conditions` };
    }
    const file = path.resolve(directory, target);
    if (!(await isFile(file))) return { kind: 'invalid_package', packageDir: directory, message: `its exports point to ${file}, which does not exist (not built yet?)` };
    return { kind: 'resolved', file: await realpath(file), ...identity };
  }
  const base = subpath === '.' ? (typeof packageJson?.main === 'string' ? packageJson.main : 'index.js') : subpath;
  const file = await withExtensions(path.resolve(directory, base));
  if (file === undefined) {
    return { kind: 'invalid_package', packageDir: directory, message: `no entry file: ${path.resolve(directory, base)} does not exist (set "exports" or "main" in package.json)` };
  }
  return { kind: 'resolved', file: await realpath(file), ...identity };
}

/**
 * Resolves a plugin reference to a module file without importing it: a path (against `baseDir`; a file,
 * or a folder with a package.json or index.js), or a package name found in `node_modules` of `baseDir` or
 * one of its parents (Node's lookup; symlinks, as pnpm makes them, are followed).
 */
export async function resolveModulePath(reference: string, baseDir: string): Promise<ModuleResolution> {
  if (isPathReference(reference)) {
    const target = reference.startsWith('file:') ? new URL(reference).pathname : path.resolve(baseDir, reference);
    if (await isDirectory(target)) return packageEntry(target, '.');
    const file = await withExtensions(target);
    if (file === undefined) return { kind: 'not_found', message: `${target} does not exist` };
    return { kind: 'resolved', file: await realpath(file) };
  }
  const match = PACKAGE_NAME.exec(reference);
  if (!match) return { kind: 'not_found', message: `${JSON.stringify(reference)} is neither a package name nor a path (paths start with ./ or ../)` };
  const name = match[1] as string;
  const subpath = match[2] === undefined ? '.' : `.${match[2]}`;
  let directory = path.resolve(baseDir);
  for (;;) {
    const candidate = path.join(directory, 'node_modules', name);
    if (await isDirectory(candidate)) return packageEntry(await realpath(candidate), subpath);
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return { kind: 'not_installed', message: `package ${name} is not installed (looked in node_modules from ${path.resolve(baseDir)} upwards)` };
}

/**
 * The entry file of an installed package, by name (`my-agent`, `@acme/agent`, `@acme/agent/sub`), found as
 * `resolveModulePath` finds it; undefined when the reference is a path, no such package is installed, or
 * the package has no entry file.
 */
export async function resolvePackageEntry(name: string, baseDir: string): Promise<string | undefined> {
  if (isPathReference(name)) return undefined;
  const resolution = await resolveModulePath(name, baseDir);
  return resolution.kind === 'resolved' ? resolution.file : undefined;
}
