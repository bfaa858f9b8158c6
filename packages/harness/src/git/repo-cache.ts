import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { isCommitSha } from '@agentbench/schemas';
import { RepositoryError } from '../errors/repository-error.js';
import { withFileLock } from '../util/file-lock.js';
import { cacheFolderName } from './repository-url.js';
import { GitCommandFailure, runGit } from './run-git.js';
import { pathExists } from '@agentbench/helpers';

export const CACHE_DIRECTORY_VARIABLE = 'AGENTBENCH_CACHE_DIR';

export interface RepoCacheOptions {
  /** Folder of the bare mirrors. Default `$AGENTBENCH_CACHE_DIR/git`, else `$XDG_CACHE_HOME/agentbench/git`, else `~/.cache/agentbench/git`. */
  directory?: string;
  env?: NodeJS.ProcessEnv;
}

export interface CachedRepository {
  /** The bare mirror on disk, ready to clone from. */
  path: string;
  /** Whether the network was used (first clone or a fetch). */
  didFetch: boolean;
}

/**
 * Bare mirrors of remote repositories, one per normalised URL, so a repository used by many
 * tasks is fetched once. A pinned commit already in the mirror needs no network at all; a
 * missing commit (or a branch or tag name) triggers a fetch. Safe across processes: each
 * mirror is created in a temporary folder and renamed into place under a lock file.
 */
export class RepoCache {
  readonly directory: string;

  constructor(options: RepoCacheOptions = {}) {
    this.directory = options.directory ?? RepoCache.defaultDirectory(options.env ?? process.env);
  }

  static defaultDirectory(environment: NodeJS.ProcessEnv = process.env): string {
    const configured = environment[CACHE_DIRECTORY_VARIABLE];
    if (configured !== undefined && configured !== '') return path.join(path.resolve(configured), 'git');
    const xdg = environment['XDG_CACHE_HOME'];
    const base = xdg !== undefined && xdg !== '' ? xdg : path.join(homedir(), '.cache');
    return path.join(base, 'agentbench', 'git');
  }

  /**
   * Ready checkouts of pinned commits, one folder per commit sha, that attempts copy instead of
   * fetching and checking out again (see prepareWorkspace). A leading dot: no mirror's name.
   */
  get checkoutsDirectory(): string {
    return path.join(this.directory, '.checkouts');
  }

  /** Where the mirror of `url` lives (whether or not it exists yet). */
  pathFor(url: string): string {
    return path.join(this.directory, cacheFolderName(url));
  }

  /**
   * Makes sure the mirror of `url` exists and holds `commit` when it can: clones it the first
   * time, fetches when the commit is missing or is a branch/tag name. Throws a git_clone
   * RepositoryError when the remote cannot be reached and the cache cannot serve the commit.
   * A commit the remote does not have is left for the checkout to report.
   */
  async ensure(url: string, commit: string, options: { signal?: AbortSignal; logFile?: string } = {}): Promise<CachedRepository> {
    const mirror = this.pathFor(url);
    // A pinned commit the mirror holds needs no write, so no lock: attempts started together (-j 4 on
    // one repository) would otherwise take it one after another, each with a git process, before any
    // could clone. Reading beside a fetch is safe: git writes objects and refs by atomic renames, and
    // a new mirror is renamed into place whole.
    if (isCommitSha(commit) && (await pathExists(mirror)) && (await this.hasCommit(mirror, commit))) return { path: mirror, didFetch: false };
    await mkdir(this.directory, { recursive: true });
    return withFileLock(`${mirror}.lock`, async () => {
      const gitOptions = { signal: options.signal, logFile: options.logFile };
      if (!(await pathExists(mirror))) {
        await this.createMirror(url, mirror, gitOptions);
        if (!isCommitSha(commit) || (await this.hasCommit(mirror, commit))) return { path: mirror, didFetch: true };
        await this.fetchCommit(url, mirror, commit, gitOptions);
        return { path: mirror, didFetch: true };
      }
      if (isCommitSha(commit) && (await this.hasCommit(mirror, commit))) return { path: mirror, didFetch: false };
      try {
        await runGit(['fetch', '--tags', '--prune', 'origin'], { cwd: mirror, ...gitOptions });
      } catch (error) {
        // Offline: a branch or tag name the mirror already knows still works, from the cached state.
        if (error instanceof GitCommandFailure && !error.isAborted && !isCommitSha(commit) && (await this.hasCommit(mirror, commit))) {
          return { path: mirror, didFetch: false };
        }
        throw this.cloneError(url, commit, error);
      }
      if (isCommitSha(commit) && !(await this.hasCommit(mirror, commit))) await this.fetchCommit(url, mirror, commit, gitOptions);
      return { path: mirror, didFetch: true };
    }, { signal: options.signal });
  }

  private async createMirror(url: string, mirror: string, gitOptions: { signal: AbortSignal | undefined; logFile: string | undefined }): Promise<void> {
    const temporary = `${mirror}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await runGit(['clone', '--bare', '--quiet', url, temporary], { cwd: this.directory, ...gitOptions });
      // A bare clone has no fetch refspec; later fetches must update branches and tags in place.
      await runGit(['config', 'remote.origin.fetch', '+refs/heads/*:refs/heads/*'], { cwd: temporary, ...gitOptions });
      await rename(temporary, mirror);
    } catch (error) {
      throw this.cloneError(url, '', error);
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }

  /** Servers that allow it (GitHub does) serve a commit no branch points at any more. */
  private async fetchCommit(url: string, mirror: string, commit: string, gitOptions: { signal: AbortSignal | undefined; logFile: string | undefined }): Promise<void> {
    try {
      await runGit(['fetch', 'origin', commit], { cwd: mirror, ...gitOptions });
    } catch (error) {
      if (error instanceof GitCommandFailure && error.isAborted) throw this.cloneError(url, commit, error);
      // Not fatal here: the checkout reports the missing commit with git's words.
    }
  }

  private async hasCommit(mirror: string, commit: string): Promise<boolean> {
    try {
      await runGit(['rev-parse', '--verify', `${commit}^{commit}`], { cwd: mirror });
      return true;
    } catch {
      return false;
    }
  }

  private cloneError(url: string, commit: string, error: unknown): RepositoryError {
    const message = error instanceof Error ? error.message : String(error);
    return new RepositoryError({ stage: 'git_clone', url, commit, gitMessage: message, cause: error });
  }
}
