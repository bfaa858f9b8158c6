import { mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@agentbench/schemas';
import { applyMirrorMap, loadMirrorMap, parseMirrorConfig, parseMirrorList } from './mirror-map.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

describe('parseMirrorList', () => {
  it('reads prefix=replacement pairs separated by ; or newlines, resolving relative folders', () => {
    const rules = parseMirrorList('https://github.com/=/srv/mirrors/github/; https://gitlab.com/=mirrors/gitlab/\nssh://x/=https://git.internal/x/', { baseDir: '/home/me' });
    expect(rules.map(({ prefix, replacement }) => [prefix, replacement])).toEqual([
      ['https://github.com/', '/srv/mirrors/github/'],
      ['https://gitlab.com/', '/home/me/mirrors/gitlab/'],
      ['ssh://x/', 'https://git.internal/x/'],
    ]);
  });

  it('turns a file: URL replacement into a folder', () => {
    expect(parseMirrorList('https://a/=file:///srv/a/', { baseDir: '/' })[0]?.replacement).toBe('/srv/a/');
  });

  it('names the bad entry', () => {
    expect(() => parseMirrorList('https://github.com/', { baseDir: '/' })).toThrow(/AGENTBENCH_GIT_MIRRORS \(entry 1: "https:\/\/github.com\/"\): expected prefix=replacement/);
    expect(() => parseMirrorList('a=/x;b=', { baseDir: '/' })).toThrow(/entry 2: "b="\): the replacement is empty/);
  });
});

describe('applyMirrorMap', () => {
  const rules = parseMirrorList('https://github.com/=/srv/github/;https://github.com/psf/=/srv/psf/', { baseDir: '/' });

  it('rewrites with the longest matching prefix', () => {
    expect(applyMirrorMap('https://github.com/psf/requests', rules).url).toBe('/srv/psf/requests');
    expect(applyMirrorMap('https://github.com/django/django', rules).url).toBe('/srv/github/django/django');
  });

  it('leaves other URLs alone', () => {
    expect(applyMirrorMap('https://gitlab.com/a/b', rules)).toEqual({ url: 'https://gitlab.com/a/b' });
  });
});

describe('parseMirrorConfig and loadMirrorMap', () => {
  const temporary = useTemporaryDirectory({ prefix: 'agentbench-mirrors-' });

  it('reads git.mirrors of agentbench.config.json relative to the file', async () => {
    await writeFile(path.join(temporary.path, 'agentbench.config.json'), JSON.stringify({ git: { mirrors: { 'https://github.com/': 'mirrors/github/' } } }));
    const rules = await loadMirrorMap({ cwd: temporary.path, env: {} });
    expect(rules).toEqual([{ prefix: 'https://github.com/', replacement: path.join(temporary.path, 'mirrors/github') + path.sep, origin: path.join(temporary.path, 'agentbench.config.json') }]);
  });

  it('lets the environment variable win over the file for the same prefix', async () => {
    await writeFile(path.join(temporary.path, 'agentbench.config.json'), JSON.stringify({ git: { mirrors: { 'https://github.com/': '/from-file/', 'https://gitlab.com/': '/gitlab/' } } }));
    const rules = await loadMirrorMap({ cwd: temporary.path, env: { AGENTBENCH_GIT_MIRRORS: 'https://github.com/=/from-env/' } });
    expect(applyMirrorMap('https://github.com/a/b', rules).url).toBe('/from-env/a/b');
    expect(applyMirrorMap('https://gitlab.com/a/b', rules).url).toBe('/gitlab/a/b');
  });

  it('is empty without a variable or a file', async () => {
    expect(await loadMirrorMap({ cwd: temporary.path, env: {} })).toEqual([]);
  });

  it('reports a broken config file with its path and field', async () => {
    const file = path.join(temporary.path, 'agentbench.config.json');
    await writeFile(file, '{ "git": ');
    await expect(loadMirrorMap({ cwd: temporary.path, env: {} })).rejects.toThrow(`${file}: not valid JSON`);
    expect(() => parseMirrorConfig({ git: { mirrors: { 'https://a/': 3 } } }, file)).toThrow(`${file}: git.mirrors["https://a/"]: expected a string (URL or folder), found 3`);
    expect(() => parseMirrorConfig({ git: { mirrors: [] } }, file)).toThrow(ConfigurationError);
  });

  it('reads the config file like any input file: a regular file, bounded', async () => {
    const file = path.join(temporary.path, 'agentbench.config.json');
    await writeFile(file, '');
    await truncate(file, 2 * 1024 * 1024);
    await expect(loadMirrorMap({ cwd: temporary.path, env: {} })).rejects.toThrow(`${file}: cannot read the config file: file too large: it is 2 MiB (2,097,152 bytes); the limit for input files is 1 MiB`);
    await expect(loadMirrorMap({ cwd: temporary.path, env: {}, configFile: '/dev/zero' })).rejects.toThrow('cannot read the config file: expected a regular file, found a character device');
  });

  it('reports a config file named explicitly that does not exist', async () => {
    await mkdir(path.join(temporary.path, 'sub'));
    await expect(loadMirrorMap({ cwd: temporary.path, env: {}, configFile: path.join(temporary.path, 'sub', 'missing.json') })).rejects.toThrow(/cannot read the config file: file not found/);
  });
});
