import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { isPathReference, resolveModulePath, resolvePackageEntry } from './resolve-module-path.js';

let directory: TemporaryDirectory;
let root: string;

beforeEach(async () => {
  directory = await createTemporaryDirectory();
  root = await realpath(directory.path);
});

afterEach(async () => {
  await directory.remove();
});

async function writePackage(folder: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): Promise<string> {
  await directory.write(path.join(folder, 'package.json'), JSON.stringify(manifest));
  for (const [name, content] of Object.entries(files)) await directory.write(path.join(folder, name), content);
  return path.join(root, folder);
}

describe('isPathReference', () => {
  it.each([
    ['./plugin.js', true],
    ['../plugins/x', true],
    ['/abs/plugin.mjs', true],
    ['file:///abs/plugin.mjs', true],
    ['C:\\plugins\\x.js', true],
    ['my-plugin', false],
    ['@acme/plugin', false],
    ['@acme/plugin/sub', false],
  ])('%s → %s', (reference, expected) => {
    expect(isPathReference(reference)).toBe(expected);
  });
});

describe('resolveModulePath', () => {
  it('resolves a relative path, adding .js or .mjs, and a file: URL', async () => {
    await directory.write('plugins/one.js', '');
    await directory.write('plugins/two.mjs', '');
    expect(await resolveModulePath('./plugins/one.js', root)).toEqual({ kind: 'resolved', file: path.join(root, 'plugins/one.js') });
    expect(await resolveModulePath('./plugins/one', root)).toEqual({ kind: 'resolved', file: path.join(root, 'plugins/one.js') });
    expect(await resolveModulePath('./plugins/two', root)).toEqual({ kind: 'resolved', file: path.join(root, 'plugins/two.mjs') });
    expect(await resolveModulePath(pathToFileURL(path.join(root, 'plugins/one.js')).href, '/')).toMatchObject({ file: path.join(root, 'plugins/one.js') });
  });

  it('resolves a folder through its package.json, or its index.js', async () => {
    await writePackage('with-manifest', { name: 'local-plugin', version: '1.2.3', main: 'lib/main.js' }, { 'lib/main.js': '' });
    await directory.write('bare/index.js', '');
    expect(await resolveModulePath('./with-manifest', root)).toEqual({
      kind: 'resolved',
      file: path.join(root, 'with-manifest/lib/main.js'),
      packageDir: path.join(root, 'with-manifest'),
      packageName: 'local-plugin',
      packageVersion: '1.2.3',
    });
    expect(await resolveModulePath('./bare', root)).toMatchObject({ kind: 'resolved', file: path.join(root, 'bare/index.js') });
  });

  it('says a missing path does not exist', async () => {
    expect(await resolveModulePath('./nowhere', root)).toEqual({ kind: 'not_found', message: `${path.join(root, 'nowhere')} does not exist` });
  });

  it('finds a scoped package in node_modules of a parent folder and follows a symbolic link to it', async () => {
    const target = await writePackage('elsewhere/agent', { name: '@acme/agent', version: '2.0.0', type: 'module', exports: { '.': { import: './main.js' } } }, { 'main.js': '' });
    await directory.link('node_modules/@acme/agent', target);
    const nested = path.join(root, 'project', 'sub');
    await mkdir(nested, { recursive: true });
    expect(await resolveModulePath('@acme/agent', nested)).toEqual({
      kind: 'resolved',
      file: path.join(target, 'main.js'),
      packageDir: target,
      packageName: '@acme/agent',
      packageVersion: '2.0.0',
    });
  });

  it('picks exports the way Node imports: the first active condition in order, a subpath, the first of a fallback list', async () => {
    await writePackage(
      'node_modules/conditions',
      {
        name: 'conditions',
        exports: {
          '.': { types: './index.d.ts', require: './main.cjs', node: { import: './node.mjs' }, default: './default.js' },
          './sub': ['./first.js', './second.js'],
        },
      },
      { 'node.mjs': '', 'default.js': '', 'main.cjs': '', 'first.js': '', 'second.js': '' },
    );
    expect(await resolveModulePath('conditions', root)).toMatchObject({ kind: 'resolved', file: path.join(root, 'node_modules/conditions/node.mjs') });
    expect(await resolveModulePath('conditions/sub', root)).toMatchObject({ kind: 'resolved', file: path.join(root, 'node_modules/conditions/first.js') });
  });

  it('uses main, then index.js, for a package without exports', async () => {
    await writePackage('node_modules/with-main', { name: 'with-main', main: 'lib/entry' }, { 'lib/entry.js': '' });
    await writePackage('node_modules/with-index', { name: 'with-index' }, { 'index.js': '' });
    expect(await resolveModulePath('with-main', root)).toMatchObject({ kind: 'resolved', file: path.join(root, 'node_modules/with-main/lib/entry.js') });
    expect(await resolveModulePath('with-index', root)).toMatchObject({ kind: 'resolved', file: path.join(root, 'node_modules/with-index/index.js') });
  });

  it('says what is wrong with an installed package it cannot use', async () => {
    await writePackage('node_modules/require-only', { name: 'require-only', exports: { require: './main.cjs' } }, { 'main.cjs': '' });
    await writePackage('node_modules/unbuilt', { name: 'unbuilt', exports: './dist/index.js' });
    await writePackage('node_modules/no-entry', { name: 'no-entry', main: 'lib/missing.js' });
    expect(await resolveModulePath('require-only', root)).toEqual({
      kind: 'invalid_package',
      packageDir: path.join(root, 'node_modules/require-only'),
      message: `${path.join(root, 'node_modules/require-only/package.json')} exports nothing for "." under the import/node/default conditions`,
    });
    expect(await resolveModulePath('unbuilt', root)).toMatchObject({
      kind: 'invalid_package',
      message: `its exports point to ${path.join(root, 'node_modules/unbuilt/dist/index.js')}, which does not exist (not built yet?)`,
    });
    expect(await resolveModulePath('no-entry', root)).toMatchObject({ kind: 'invalid_package', message: expect.stringContaining('no entry file') as string });
  });

  it('says a package is not installed, and a reference that is neither a name nor a path is not found', async () => {
    expect(await resolveModulePath('@elizaos/plugin-sql', root)).toEqual({
      kind: 'not_installed',
      message: `package @elizaos/plugin-sql is not installed (looked in node_modules from ${root} upwards)`,
    });
    expect(await resolveModulePath('not a name', root)).toMatchObject({ kind: 'not_found', message: expect.stringContaining('is neither a package name nor a path') as string });
  });
});

describe('resolvePackageEntry', () => {
  it('gives the entry file of an installed package, and undefined for a path, a missing or an unusable package', async () => {
    await writePackage('node_modules/agent', { name: 'agent', type: 'module', exports: { import: './main.js' } }, { 'main.js': '' });
    await writePackage('node_modules/unbuilt', { name: 'unbuilt', exports: './dist/index.js' });
    await directory.write('local.js', '');
    expect(await resolvePackageEntry('agent', root)).toBe(path.join(root, 'node_modules/agent/main.js'));
    expect(await resolvePackageEntry('./local.js', root)).toBeUndefined();
    expect(await resolvePackageEntry('missing', root)).toBeUndefined();
    expect(await resolvePackageEntry('unbuilt', root)).toBeUndefined();
  });
});
