import { copyFile, lstat, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { walkDirectory } from '../artifacts/directory-walk.js';
import { IsolatedGitError, runIsolatedGit, type IsolatedGitOptions } from './isolated-git.js';

/** Files larger than this are left out of snapshots (and so of the agent's diff), and named. */
export const SNAPSHOT_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Entries walked at most in one snapshot; a work tree past it is refused. */
const SNAPSHOT_MAX_ENTRIES = 1_000_000;

export interface WorkTreeSnapshotsOptions {
  /** The harness's own git directory for this attempt: created here, outside every sandbox mount. */
  gitDir: string;
  /** A host-owned git directory that holds the pinned commit (the repository cache or the task's repository). */
  sourceGitDir: string;
  commitSha: string;
  /** The repository folder the sandbox writes (`<workspace>/repo`). */
  workTree: string;
  logFile?: string;
  signal?: AbortSignal;
}

export interface WorkTreeSnapshot {
  /** Tree object of the work tree's content. */
  tree: string;
  /** Paths left out because they were larger than SNAPSHOT_MAX_FILE_BYTES. */
  skippedLargeFiles: string[];
}

export interface ChangedPath {
  /** git's letter: A added, M modified, D deleted, T type changed. */
  status: string;
  path: string;
}

/**
 * The states of a sandbox-written work tree, recorded by git on the host without trusting
 * anything the sandbox wrote: the git directory is the harness's own (its objects reach the
 * pinned commit through `alternates` on a host-owned repository), each snapshot starts from
 * a fresh index of the pinned commit, and the work tree's `.git` is never read. Used for the
 * post-setup check and for the agent's diff (post-setup state → final state).
 */
export class WorkTreeSnapshots {
  private constructor(
    private readonly options: WorkTreeSnapshotsOptions,
    private readonly gitOptions: IsolatedGitOptions,
  ) {}

  static async create(options: WorkTreeSnapshotsOptions): Promise<WorkTreeSnapshots> {
    const gitOptions: IsolatedGitOptions = {
      gitDir: options.gitDir,
      ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    await rm(options.gitDir, { recursive: true, force: true });
    await mkdir(path.join(options.gitDir, 'objects', 'info'), { recursive: true, mode: 0o700 });
    await mkdir(path.join(options.gitDir, 'refs'), { recursive: true });
    await writeFile(path.join(options.gitDir, 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(options.gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
    await writeFile(path.join(options.gitDir, 'objects', 'info', 'alternates'), `${path.resolve(options.sourceGitDir, 'objects')}\n`);
    // The pinned commit's index, read once (it fails when the alternates do not reach a commit):
    // every snapshot starts from a copy of it. It needs no work tree, so an attempt makes it while setup runs.
    await runIsolatedGit(['read-tree', `${options.commitSha}^{commit}`], { ...gitOptions, indexFile: baseIndexFile(options.gitDir) });
    return new WorkTreeSnapshots(options, gitOptions);
  }

  /** The work tree as it is now. Call it while no sandbox process can change the tree, where possible. */
  async snapshot(): Promise<WorkTreeSnapshot> {
    return (await this.snapshotWith(async () => undefined)).snapshot;
  }

  /**
   * The work tree as it is now, and the paths that differ from `from` (a commit or tree), limited to
   * `pathspecs`: `changedPaths(from, snapshot.tree, pathspecs)` in one step. The paths are read from
   * the snapshot's index while its tree is written, one git process after the other on the
   * attempt's critical path instead of two.
   */
  async snapshotComparedWith(from: string, pathspecs: readonly string[] = []): Promise<{ snapshot: WorkTreeSnapshot; changed: ChangedPath[] }> {
    const { snapshot, extra } = await this.snapshotWith((options) => runIsolatedGit(['diff-index', '--cached', '-r', '-z', '--no-renames', '--name-status', from, '--', ...pathspecs], options));
    return { snapshot, changed: parseNameStatus(extra as Buffer) };
  }

  /** Adds the work tree to a fresh index of the pinned commit, then writes its tree while `beside` reads the index. */
  private async snapshotWith<T>(beside: (options: IsolatedGitOptions) => Promise<T>): Promise<{ snapshot: WorkTreeSnapshot; extra: T }> {
    const workTree = await checkedWorkTree(this.options.workTree);
    const indexFile = path.join(this.options.gitDir, 'snapshot.index');
    const options: IsolatedGitOptions = { ...this.gitOptions, workTree, indexFile };
    try {
      // A fresh index of the pinned commit (a copy, not a link: git add rewrites it), while the tree is walked.
      const [skippedLargeFiles] = await Promise.all([largeFiles(workTree), copyFile(baseIndexFile(this.options.gitDir), indexFile)]);
      const excluded = skippedLargeFiles.map((file) => `:(exclude,literal)${file}`);
      // --ignore-errors: a FIFO or socket the sandbox left is not content; it is skipped, not fatal.
      await runIsolatedGit(['add', '--all', '--ignore-errors', '--', '.', ...excluded], options).catch((error: unknown) => {
        if (!(error instanceof IsolatedGitError) || !/unable to index|can only add regular files/.test(error.message)) throw error;
      });
      // write-tree replaces the index by a rename (it adds its cache of trees): a reader beside it sees one whole index or the other, of the same entries.
      const [written, extra] = await Promise.all([runIsolatedGit(['write-tree'], options), beside(options)]);
      return { snapshot: { tree: written.toString('utf8').trim(), skippedLargeFiles }, extra };
    } finally {
      await rm(indexFile, { force: true });
    }
  }

  /** Paths that differ between two snapshots (or the pinned commit), limited to `pathspecs` when given. */
  async changedPaths(from: string, to: string, pathspecs: readonly string[] = []): Promise<ChangedPath[]> {
    return parseNameStatus(await runIsolatedGit(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to, '--', ...pathspecs], this.gitOptions));
  }

  /** A binary-safe patch from one snapshot to another, limited to `pathspecs` when given. */
  async diff(from: string, to: string, pathspecs: readonly string[] = []): Promise<Buffer> {
    return runIsolatedGit(['diff-tree', '-p', '--binary', '--full-index', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--', ...pathspecs], this.gitOptions);
  }

  /** Deletes the harness's git directory (the objects of the snapshots). */
  async remove(): Promise<void> {
    await rm(this.options.gitDir, { recursive: true, force: true });
  }
}

/** `--name-status -z` output (no renames): status and path, NUL-separated. */
function parseNameStatus(output: Buffer): ChangedPath[] {
  const fields = output.toString('utf8').split('\0');
  const changed: ChangedPath[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    changed.push({ status: fields[index] as string, path: fields[index + 1] as string });
  }
  return changed;
}

/** The index of the pinned commit that each snapshot copies. */
function baseIndexFile(gitDir: string): string {
  return path.join(gitDir, 'pinned-commit.index');
}

/** The work tree itself must be a real folder: a sandbox could have replaced it by a link to `/`. */
async function checkedWorkTree(workTree: string): Promise<string> {
  const resolved = path.resolve(workTree);
  const info = await lstat(resolved);
  if (info.isSymbolicLink() || !info.isDirectory()) {
    throw new IsolatedGitError(`the work tree ${resolved} is no longer a folder (the sandbox replaced it); nothing in it is read`);
  }
  const parent = await realpath(path.dirname(resolved));
  return path.join(parent, path.basename(resolved));
}

/** Regular files over the limit, found with lstat only (links are never followed), `.git` folders skipped. */
async function largeFiles(workTree: string): Promise<string[]> {
  const found: string[] = [];
  let entries = 0;
  // The tree is sandbox-written and may change under us (a setup daemon): folders are opened
  // without following links and checked to be the folder listed, as the workspace cleaner does.
  await walkDirectory(workTree, {
    onEntry: async (entry) => {
      entries += 1;
      if (entries > SNAPSHOT_MAX_ENTRIES) throw new IsolatedGitError(`the work tree has more than ${SNAPSHOT_MAX_ENTRIES} entries; it is not snapshotted`);
      if (entry.stats.isDirectory()) return entry.name !== '.git';
      if (entry.stats.isFile() && entry.stats.size > SNAPSHOT_MAX_FILE_BYTES) found.push(entry.relativePath);
      return false;
    },
    // A folder swapped while listed is not followed; git, which never follows links, reads what is there.
    onOpenFailed: async () => undefined,
  });
  return found.sort();
}
