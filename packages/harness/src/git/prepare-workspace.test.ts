import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneBare, createGitRepository, git, makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { RepositoryError } from '../errors/repository-error.js';
import { parseMirrorList } from './mirror-map.js';
import { prepareWorkspace } from './prepare-workspace.js';
import { RepoCache } from './repo-cache.js';

// Real git, real repositories made here with fixed dates; no network and no Docker.
describe('prepareWorkspace and RepoCache', () => {
  let root: string;
  let shas: string[];
  let counter = 0;
  const nextWorkspace = (): string => path.join(root, 'workspaces', String((counter += 1)));

  beforeAll(() => {
    root = makeTemporaryDirectory('prepare');
    shas = createGitRepository(path.join(root, 'source'), [
      { message: 'first', files: { 'calc.py': 'def add(a, b):\n    return a - b\n' } },
      { message: 'fix', files: { 'calc.py': 'def add(a, b):\n    return a + b\n' } },
    ]);
    git(path.join(root, 'source'), ['tag', 'v1', shas[0] as string]);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('clones a local path and checks out the pinned commit, detached, with later history unreachable', async () => {
    const workspaceDir = nextWorkspace();
    const prepared = await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: shas[0] as string, workspaceDir });
    expect(prepared.repoDir).toBe(path.join(workspaceDir, 'repo'));
    expect(prepared.commitSha).toBe(shas[0]);
    expect(prepared.isFromCache).toBe(false);
    expect(await readFile(path.join(prepared.repoDir, 'calc.py'), 'utf8')).toContain('a - b');
    expect(git(prepared.repoDir, ['rev-parse', 'HEAD']).trim()).toBe(shas[0]);
    expect(git(prepared.repoDir, ['log', '--all', '--format=%s']).trim()).toBe('first');
    expect(git(prepared.repoDir, ['status', '--porcelain'])).toBe('');
    // The workspace owns its objects and has no remote pointing back at the source.
    expect(existsSync(path.join(prepared.repoDir, '.git', 'objects', 'info', 'alternates'))).toBe(false);
    expect(git(prepared.repoDir, ['remote']).trim()).toBe('');
    expect(() => git(prepared.repoDir, ['cat-file', '-e', shas[1] as string])).toThrow();
  });

  it('resolves a tag, a branch name or a short sha', async () => {
    const byTag = await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: 'v1', workspaceDir: nextWorkspace() });
    expect(byTag.commitSha).toBe(shas[0]);
    const byBranch = await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: 'main', workspaceDir: nextWorkspace() });
    expect(byBranch.commitSha).toBe(shas[1]);
    const byShortSha = await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: (shas[0] as string).slice(0, 9), workspaceDir: nextWorkspace() });
    expect(byShortSha.commitSha).toBe(shas[0]);
    const unknownBranch = (await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: 'no-such-branch', workspaceDir: nextWorkspace() }).catch((caught: unknown) => caught)) as RepositoryError;
    expect(unknownBranch.failureReason).toBe('GIT_CHECKOUT_FAILED');
    expect(unknownBranch.gitMessage).toBe('fatal: Needed a single revision');
  });

  it('fails with GIT_CLONE_FAILED and git\'s message for a repository that does not exist', async () => {
    const missing = path.join(root, 'nowhere');
    const error = await prepareWorkspace({ repoUrl: missing, commit: shas[0] as string, workspaceDir: nextWorkspace() }).catch((caught: unknown) => caught);
    expect(RepositoryError.isInstance(error)).toBe(true);
    const repositoryError = error as RepositoryError;
    expect(repositoryError.failureReason).toBe('GIT_CLONE_FAILED');
    expect(repositoryError.stage).toBe('git_clone');
    expect(repositoryError.message).toBe(`cannot clone ${missing}: fatal: repository '${missing}' does not exist`);
    const notARepository = path.join(root, 'workspaces');
    const other = (await prepareWorkspace({ repoUrl: notARepository, commit: 'main', workspaceDir: nextWorkspace() }).catch((caught: unknown) => caught)) as RepositoryError;
    expect(other.failureReason).toBe('GIT_CLONE_FAILED');
    expect(other.message).toMatch(/fatal: not a git repository/);
  });

  it('fails with GIT_CHECKOUT_FAILED and git\'s message for a commit the repository lacks', async () => {
    const absent = 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
    const error = (await prepareWorkspace({ repoUrl: path.join(root, 'source'), commit: absent, workspaceDir: nextWorkspace() }).catch((caught: unknown) => caught)) as RepositoryError;
    expect(error.failureReason).toBe('GIT_CHECKOUT_FAILED');
    expect(error.message).toMatch(new RegExp(`^cannot check out ${absent} of .*source: fatal: Not a valid object name ${absent}\\^\\{commit\\}$`));
  });

  it('serves a remote-looking URL from a local bare mirror through the mirror map', async () => {
    await mkdir(path.join(root, 'mirrors', 'example'), { recursive: true });
    cloneBare(path.join(root, 'source'), path.join(root, 'mirrors', 'example', 'calc.git'));
    const mirrors = parseMirrorList(`https://git.example.invalid/=${path.join(root, 'mirrors')}/`, { baseDir: root });
    const cache = new RepoCache({ directory: path.join(root, 'unused-cache') });
    const prepared = await prepareWorkspace({
      repoUrl: 'https://git.example.invalid/example/calc',
      commit: shas[1] as string,
      workspaceDir: nextWorkspace(),
      mirrors,
      cache,
    });
    expect(prepared.source).toBe(path.join(root, 'mirrors', 'example', 'calc.git'));
    expect(prepared.mirroredUrl).toBe(path.join(root, 'mirrors', 'example', 'calc'));
    expect(prepared.isFromCache).toBe(false);
    expect(prepared.commitSha).toBe(shas[1]);
    // No mirror was cloned into the cache (only the pinned commit's ready checkout is kept there).
    expect(existsSync(cache.pathFor('https://git.example.invalid/example/calc'))).toBe(false);
    expect(await readdir(path.join(root, 'unused-cache'))).toEqual(['.checkouts']);
  });

  it('copies a commit checked out before from the cache, running no fetch or checkout, as a fresh clone would hold it and never linked to the cache', async () => {
    const cache = new RepoCache({ directory: path.join(root, 'checkout-cache') });
    const source = path.join(root, 'source');
    await prepareWorkspace({ repoUrl: source, commit: shas[0] as string, workspaceDir: nextWorkspace(), cache });
    const workspaceDir = nextWorkspace();
    const logFile = path.join(root, 'copy-git.log');
    const prepared = await prepareWorkspace({ repoUrl: source, commit: (shas[0] as string).toUpperCase(), workspaceDir, cache, logFile });
    // One git process: the index's refresh, no init, fetch or checkout.
    expect((await readFile(logFile, 'utf8')).split('\n').filter((line) => line.startsWith('$ git')).map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual(['$ git update-index']);
    // The index matches the copied files as they are (before any command that refreshes it), as `git apply --index` needs.
    expect(() => git(prepared.repoDir, ['diff-files', '--quiet'])).not.toThrow();
    expect(prepared.commitSha).toBe(shas[0]);
    expect(git(prepared.repoDir, ['rev-parse', 'HEAD']).trim()).toBe(shas[0]);
    expect(() => git(prepared.repoDir, ['symbolic-ref', '-q', 'HEAD'])).toThrow();
    expect(git(prepared.repoDir, ['log', '--all', '--format=%s']).trim()).toBe('first');
    expect(git(prepared.repoDir, ['status', '--porcelain'])).toBe('');
    expect(git(prepared.repoDir, ['remote']).trim()).toBe('');
    expect(existsSync(path.join(prepared.repoDir, '.git', 'FETCH_HEAD'))).toBe(false);
    expect(existsSync(path.join(prepared.repoDir, '.git', 'objects', 'info', 'alternates'))).toBe(false);
    // What the sandbox later writes into the workspace never reaches the cached checkout.
    const cached = path.join(cache.checkoutsDirectory, shas[0] as string);
    await writeFile(path.join(prepared.repoDir, 'calc.py'), 'changed by the sandbox\n');
    expect(await readFile(path.join(cached, 'calc.py'), 'utf8')).toContain('a - b');
    expect((await stat(path.join(prepared.repoDir, 'calc.py'))).ino).not.toBe((await stat(path.join(cached, 'calc.py'))).ino);
    // Only ready checkouts are left in the cache, no half-built one.
    expect(await readdir(cache.checkoutsDirectory)).toEqual([shas[0]]);
  });

  it('caches a repository once and fetches only for a commit it does not hold', async () => {
    const server = path.join(root, 'server-work');
    const serverShas = createGitRepository(server, [{ message: 'one', files: { 'a.txt': '1' } }]);
    const cache = new RepoCache({ directory: path.join(root, 'cache') });
    const first = await cache.ensure(server, serverShas[0] as string);
    expect(first.didFetch).toBe(true);
    expect(first.path).toBe(cache.pathFor(server));
    const second = await cache.ensure(server, serverShas[0] as string);
    expect(second.didFetch).toBe(false);

    const [, newSha] = createGitRepository(server, [{ message: 'one', files: {} }, { message: 'two', files: { 'a.txt': '2' } }]).slice(-2);
    const third = await cache.ensure(server, newSha as string);
    expect(third.didFetch).toBe(true);
    expect(git(third.path, ['cat-file', '-t', newSha as string]).trim()).toBe('commit');
  });

  it('runs concurrent requests for one repository one at a time, with one clone', async () => {
    const cache = new RepoCache({ directory: path.join(root, 'cache-concurrent') });
    const results = await Promise.all([1, 2, 3].map(() => cache.ensure(path.join(root, 'source'), shas[1] as string)));
    expect(results.filter((result) => result.didFetch)).toHaveLength(1);
  });

  it('serves a pinned commit the mirror holds without the lock, even while another holder keeps it', async () => {
    const cache = new RepoCache({ directory: path.join(root, 'cache-held') });
    const source = path.join(root, 'source');
    expect((await cache.ensure(source, shas[0] as string)).didFetch).toBe(true);
    // A live process (this one) holds the mirror's lock, as another run's fetch would.
    await writeFile(`${cache.pathFor(source)}.lock`, JSON.stringify({ pid: process.pid, hostname: hostname() }));
    try {
      expect(await cache.ensure(source, shas[0] as string)).toEqual({ path: cache.pathFor(source), didFetch: false });
    } finally {
      await rm(`${cache.pathFor(source)}.lock`, { force: true });
    }
  });

  it('reports an unreachable remote as GIT_CLONE_FAILED naming the URL', async () => {
    const cache = new RepoCache({ directory: path.join(root, 'cache-unreachable') });
    const url = 'https://127.0.0.1:9/nobody/nothing';
    const error = (await prepareWorkspace({ repoUrl: url, commit: shas[0] as string, workspaceDir: nextWorkspace(), cache }).catch((caught: unknown) => caught)) as RepositoryError;
    expect(error.failureReason).toBe('GIT_CLONE_FAILED');
    expect(error.message).toMatch(/^cannot clone https:\/\/127\.0\.0\.1:9\/nobody\/nothing: .*(unable to access|Failed to connect|Connection refused)/s);
  });
});
