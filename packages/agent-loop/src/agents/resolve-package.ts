import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Picks the ESM entry of an `exports` value: a string, or conditions (`import` > `node` > `default`), possibly nested. */
function pickExport(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const picked = pickExport(item);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if ('.' in record) return pickExport(record['.']);
    for (const condition of ['import', 'node', 'default']) {
      if (condition in record) {
        const picked = pickExport(record[condition]);
        if (picked !== undefined) return picked;
      }
    }
  }
  return undefined;
}

/**
 * Finds an installed package's ESM entry file the way Node would from `baseDir` (walking up
 * `node_modules` folders), for packages whose `exports` offer no `require` condition.
 * Undefined when it is not installed.
 */
export async function resolvePackageEntry(name: string, baseDir: string): Promise<string | undefined> {
  let folder = path.resolve(baseDir);
  for (;;) {
    const packageDir = path.join(folder, 'node_modules', ...name.split('/'));
    const manifestFile = path.join(packageDir, 'package.json');
    if (await isFile(manifestFile)) {
      const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, unknown>;
      const fromExports = manifest['exports'] === undefined ? undefined : pickExport(manifest['exports']);
      const candidates = [fromExports, typeof manifest['module'] === 'string' ? manifest['module'] : undefined, typeof manifest['main'] === 'string' ? manifest['main'] : undefined, 'index.js'];
      for (const candidate of candidates) {
        if (candidate !== undefined && (await isFile(path.join(packageDir, candidate)))) return path.join(packageDir, candidate);
      }
      return undefined;
    }
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
