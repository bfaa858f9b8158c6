import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { COMMIT_SHA_PATTERN, isRemoteRepositoryUrl } from '@agentbench/schemas';
import { AttemptInterruptedError } from '../errors/attempt-interrupted-error.js';
import { RepositoryError, type RepositoryStage } from '../errors/repository-error.js';
import { applyMirrorMap, type MirrorRule } from './mirror-map.js';
import { RepoCache } from './repo-cache.js';
import { evictLeastRecentlyUsedCheckouts, markCheckoutUsed } from './ready-checkouts.js';
import { GitCommandFailure, runGit } from './run-git.js';
import { pathExists } from '@agentbench/helpers';

export interface PrepareWorkspaceOptions {
  /** The repository as the task names it, resolved: a remote URL or an absolute local path (`LoadedTask.repoUrl`). */
  repoUrl: string;
  /** Commit sha to pin (a short sha, a branch or a tag name work too). */
  commit: string;
  /** Host folder of the workspace; it is created if needed, and `<workspaceDir>/repo` must not exist. */
  workspaceDir: string;
  /** URL rewrites (see `loadMirrorMap`). */
  mirrors?: readonly MirrorRule[];
  /** Cache of remote repositories. Default: a `RepoCache` in its default folder. */
  cache?: RepoCache;
  signal?: AbortSignal;
  /** File each git command and its output is appended to. */
  logFile?: string;
  /** Told when a stage starts, for progress and the stage a failure is recorded under. */
  onStage?: (stage: RepositoryStage) => void;
}

export interface PreparedWorkspace {
  /** `<workspaceDir>/repo`, checked out at `commitSha` (detached HEAD). */
  repoDir: string;
  commitSha: string;
  /** What was fetched from: a local path (the task's, a mirror's, or the cache's). */
  source: string;
  /** The git directory of `source`: host-owned, never mounted in a sandbox (see WorkTreeSnapshots). */
  sourceGitDir: string;
  /** The URL after the mirror map, when a rule applied. */
  mirroredUrl?: string;
  isFromCache: boolean;
  /** Whether the cache used the network. */
  didFetch: boolean;
  cloneMs: number;
  checkoutMs: number;
}

const FULL_SHA = /^[0-9a-f]{40}$/i;
/** A resolved sha (SHA-1 or SHA-256), lower case: safe as a folder name. */
const CACHEABLE_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A local mirror folder may be named with or without `.git`. */
async function localCandidate(localPath: string): Promise<string> {
  if (await pathExists(localPath)) return localPath;
  const alternative = localPath.endsWith('.git') ? localPath.slice(0, -4) : `${localPath.replace(/[\\/]+$/, '')}.git`;
  return (await pathExists(alternative)) ? alternative : localPath;
}

/** The git directory of a local repository: `<source>/.git` for a work tree, the folder itself when bare. */
async function gitDirectoryOf(source: string): Promise<string> {
  const dotGit = path.join(source, '.git');
  return (await pathExists(dotGit)) ? dotGit : source;
}

/** git's first line saying what went wrong, without the progress lines and advice paragraphs around it. */
function essentialMessage(message: string): string {
  const line = message.split('\n').map((text) => text.trim()).find((text) => /^(fatal|error):/.test(text));
  return line ?? message.trim();
}

/**
 * Why a fetch failed, as a RepositoryError of the right stage: the source lacks the commit
 * (git_checkout) or cannot be read at all (git_clone). Asked of the source itself, because the
 * fetch's own message depends on which of its two processes reports first.
 */
async function explainFetchFailure(
  error: unknown,
  source: string,
  commitSha: string,
  workspaceDir: string,
  gitOptions: { signal?: AbortSignal; logFile?: string },
): Promise<unknown> {
  if (!(error instanceof GitCommandFailure) || error.isAborted) return error;
  const fetchMessage = error.message;
  try {
    await runGit([`--git-dir=${await gitDirectoryOf(source)}`, 'cat-file', '-e', `${commitSha}^{commit}`], { cwd: workspaceDir, allowGitDirectory: true, ...gitOptions });
  } catch (probeError) {
    if (probeError instanceof GitCommandFailure && !probeError.isAborted && !/not a git repository/i.test(probeError.message)) {
      return new RepositoryError({ stage: 'git_checkout', url: source, commit: commitSha, gitMessage: probeError.message.trim(), cause: error });
    }
  }
  return new RepositoryError({ stage: 'git_clone', url: source, commit: commitSha, gitMessage: essentialMessage(fetchMessage), cause: error });
}

/**
 * Puts a task's repository at the pinned commit in `<workspaceDir>/repo` (detached HEAD). A
 * remote URL goes through the mirror map and then the repository cache (fetched once, reused by
 * every task); a local path or a mirror folder is used directly. The workspace is a fresh
 * repository that fetches only the pinned commit and its ancestors: it owns its objects (nothing
 * done in the sandbox reaches the source or the cache), has no remote, and holds no later commit,
 * so `git log --all` cannot show the fix. Throws a RepositoryError (GIT_CLONE_FAILED or
 * GIT_CHECKOUT_FAILED) with git's message, or AttemptInterruptedError when `signal` aborts.
 */
export async function prepareWorkspace(options: PrepareWorkspaceOptions): Promise<PreparedWorkspace> {
  const { repoUrl, commit, workspaceDir, signal, logFile } = options;
  const repoDir = path.join(workspaceDir, 'repo');
  await mkdir(workspaceDir, { recursive: true });
  const gitOptions = { ...(signal === undefined ? {} : { signal }), ...(logFile === undefined ? {} : { logFile }) };
  let stage: RepositoryStage = 'git_clone';
  let source = repoUrl;
  const fail = (error: unknown, requestedStage?: RepositoryStage): never => {
    const failedStage = requestedStage ?? (RepositoryError.isInstance(error) ? error.stage : stage);
    if (signal?.aborted === true || (error instanceof GitCommandFailure && error.isAborted)) throw new AttemptInterruptedError(failedStage);
    const gitMessage = RepositoryError.isInstance(error) ? error.gitMessage : essentialMessage(error instanceof Error ? error.message : String(error));
    throw new RepositoryError({ stage: failedStage, url: repoUrl, ...(source === repoUrl ? {} : { source }), commit, gitMessage, cause: error });
  };

  options.onStage?.('git_clone');
  const cloneStarted = performance.now();
  const mirrored = applyMirrorMap(repoUrl, options.mirrors ?? []);
  source = mirrored.url;
  let isFromCache = false;
  let didFetch = false;
  if (isRemoteRepositoryUrl(mirrored.url)) {
    const cache = options.cache ?? new RepoCache();
    try {
      const cached = await cache.ensure(mirrored.url, commit, gitOptions);
      source = cached.path;
      didFetch = cached.didFetch;
      isFromCache = true;
    } catch (error) {
      fail(error);
    }
  } else if (mirrored.rule !== undefined) {
    source = await localCandidate(mirrored.url);
  }
  if (await pathExists(repoDir)) fail(new Error(`the workspace ${repoDir} already exists; an attempt needs a fresh folder`));
  if (!(await pathExists(source))) fail(new Error(`fatal: repository '${source}' does not exist`));

  // A branch, a tag or a short sha cannot be fetched by name from a sha: resolve it in the source.
  let commitSha = FULL_SHA.test(commit) ? commit.toLowerCase() : commit;
  if (!FULL_SHA.test(commit)) {
    try {
      const gitDirectory = await gitDirectoryOf(source);
      const output = await runGit([`--git-dir=${gitDirectory}`, 'rev-parse', '--verify', `${commit}^{commit}`], { cwd: workspaceDir, allowGitDirectory: true, ...gitOptions });
      commitSha = output.trim();
    } catch (error) {
      fail(error, /not a git repository/i.test(String((error as Error).message)) ? 'git_clone' : 'git_checkout');
    }
    if (!COMMIT_SHA_PATTERN.test(commitSha)) fail(new Error(`cannot resolve ${commit} to a commit (git printed "${commitSha}")`), 'git_checkout');
  }
  // Stage reports (and the stage a failure is recorded under) follow the checkout's progress.
  const onStage = (next: RepositoryStage): void => {
    stage = next;
    options.onStage?.(next);
  };
  const checkout: PinnedCheckout = { source, commitSha, workspaceDir, gitOptions, onStage };
  // Only a full sha names a cached checkout (it is a folder name); a cache is used when the caller gave one.
  const checkoutsDir = CACHEABLE_SHA.test(commitSha) ? options.cache?.checkoutsDirectory : undefined;
  let checkoutMs = 0;
  try {
    checkoutMs = checkoutsDir === undefined ? await checkOutPinnedCommit(repoDir, checkout) : await copyCheckout(checkoutsDir, repoDir, checkout);
  } catch (error) {
    fail(error);
  }
  const prepared: PreparedWorkspace = {
    repoDir,
    commitSha,
    source,
    sourceGitDir: await gitDirectoryOf(source),
    isFromCache,
    didFetch,
    cloneMs: performance.now() - cloneStarted - checkoutMs,
    checkoutMs,
  };
  if (mirrored.rule !== undefined) prepared.mirroredUrl = mirrored.url;
  return prepared;
}

interface PinnedCheckout {
  source: string;
  commitSha: string;
  workspaceDir: string;
  gitOptions: { signal?: AbortSignal; logFile?: string };
  onStage: (stage: RepositoryStage) => void;
}

/**
 * A fresh repository in `repoDir` that fetched only the pinned commit and its ancestors from the
 * source, checked out detached; FETCH_HEAD removed. Returns the checkout's milliseconds.
 */
async function checkOutPinnedCommit(repoDir: string, checkout: PinnedCheckout): Promise<number> {
  const { source, commitSha, workspaceDir, gitOptions } = checkout;
  try {
    await mkdir(repoDir);
    await runGit(['init', '--initial-branch=main', repoDir], { cwd: workspaceDir, ...gitOptions });
    await runGit(['fetch', '--no-tags', '--no-write-fetch-head', source, commitSha], { cwd: repoDir, ...gitOptions });
  } catch (error) {
    throw await explainFetchFailure(error, source, commitSha, workspaceDir, gitOptions);
  }
  checkout.onStage('git_checkout');
  const checkoutStarted = performance.now();
  await runGit(['-c', 'advice.detachedHead=false', 'checkout', '--detach', commitSha], { cwd: repoDir, ...gitOptions });
  const head = (await readFile(path.join(repoDir, '.git', 'HEAD'), 'utf8')).trim();
  if (head !== commitSha) throw new Error(`HEAD is "${head}" after the checkout, not ${commitSha}`);
  await rm(path.join(repoDir, '.git', 'FETCH_HEAD'), { force: true });
  return performance.now() - checkoutStarted;
}

/**
 * The pinned commit's checkout, copied from the cache's ready one (made by checkOutPinnedCommit
 * the first time a commit is asked for, in a temporary folder renamed into place, so a reader
 * never sees half of one). A commit sha names its whole history, so the copy holds exactly what
 * a fresh fetch would: the pinned commit and its ancestors, no remote, no later commit. It is a
 * real copy, never linked: the sandbox writes the workspace, and nothing it writes may reach the
 * cache. One copy instead of three git commands (six processes) on the attempt's critical path.
 */
async function copyCheckout(checkoutsDir: string, repoDir: string, checkout: PinnedCheckout): Promise<number> {
  const ready = path.join(checkoutsDir, checkout.commitSha);
  if (!(await pathExists(ready))) {
    await mkdir(checkoutsDir, { recursive: true });
    const building = path.join(checkoutsDir, `.${checkout.commitSha}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(building);
      await checkOutPinnedCommit(path.join(building, 'repo'), { ...checkout, workspaceDir: building });
      // Another attempt may have put the same commit in place meanwhile: either copy will do.
      await rename(path.join(building, 'repo'), ready).catch(async (error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !(await pathExists(ready))) throw error;
      });
    } finally {
      await rm(building, { recursive: true, force: true });
    }
    await markCheckoutUsed(ready);
    await evictLeastRecentlyUsedCheckouts(checkoutsDir);
  } else {
    await markCheckoutUsed(ready);
  }
  checkout.onStage('git_checkout');
  const copyStarted = performance.now();
  // One cp process (links copied as links, modes and times kept): several times faster than fs.cp's
  // file-by-file copy on a busy host (a toy checkout: 70–120 ms against 120–550 ms at load 12).
  // repoDir does not exist yet, so cp makes it as the copy of `ready`.
  try {
    await copyFolder(ready, repoDir, checkout.gitOptions.signal);
  } catch (error) {
    // Another process may have evicted `ready` under the copy: check the commit out afresh instead.
    if (checkout.gitOptions.signal?.aborted === true) throw error;
    await rm(repoDir, { recursive: true, force: true });
    await checkOutPinnedCommit(repoDir, checkout);
  }
  const head = (await readFile(path.join(repoDir, '.git', 'HEAD'), 'utf8')).trim();
  if (head !== checkout.commitSha) throw new Error(`HEAD is "${head}" in the cached checkout ${ready}, not ${checkout.commitSha}`);
  // The copied index holds the cached files' inodes and change times, so git would take every file
  // for changed (`git apply --index` in a SWE-bench setup fails "does not match index"): refresh it.
  await runGit(['update-index', '-q', '--refresh'], { cwd: repoDir, ...checkout.gitOptions });
  return performance.now() - copyStarted;
}

const execFileAsync = promisify(execFile);

/** `cp -R -P -p from to`: `to` must not exist. Both are the harness's own paths (the cache's, the staging folder's). */
async function copyFolder(from: string, to: string, signal: AbortSignal | undefined): Promise<void> {
  try {
    await execFileAsync('cp', ['-R', '-P', '-p', '--', from, to], { ...(signal === undefined ? {} : { signal }), maxBuffer: 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`cannot copy the cached checkout ${from} to ${to}: ${stderr || (error instanceof Error ? error.message : String(error))}`, { cause: error });
  }
}
