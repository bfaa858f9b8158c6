import { constants as fsConstants } from 'node:fs';
import { copyFile, lchown, lstat, mkdir, mkdtemp, open, readdir, readFile, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { SandboxError } from '../../contract/sandbox-error.js';
import { assertNoSymlinkEscape, resolveWorkspacePath } from './path-safety.js';
import type { FileEntry, SandboxSpec } from '../../contract/sandbox.js';
import { copySandboxTreeOut } from './copy-out-tree.js';
import { giveTreeTo, type FileOwner } from './file-owner.js';

/**
 * A workspace that is a folder on the host (local and bwrap backends): file operations
 * act on it directly, after the lexical check (`resolveWorkspacePath`) and the symlink
 * check (`assertNoSymlinkEscape`). With an `owner`, everything it creates or copies in is
 * given to that user (the bwrap backend's sandbox user, when we run as root), so commands
 * in the sandbox can still change it.
 */
export class HostWorkspace {
  private constructor(
    /** Real path of the host folder. */
    readonly hostRoot: string,
    /** Absolute path of the same folder as commands see it. */
    readonly workdir: string,
    /** Whether we made the folder (and so remove it on dispose). */
    readonly isOwned: boolean,
    /** Who must own the workspace's files; undefined: whoever we are. */
    private readonly owner: FileOwner | undefined,
  ) {}

  private handingOver: Promise<void> | undefined;

  /**
   * Uses `spec.mountWorkspace` as is, or makes a temporary folder filled from
   * `spec.hostWorkspace`; then writes `spec.files`. `workdir` is the path commands see
   * (`undefined`: the host path itself, for the local backend). With `owner`, the whole
   * workspace is given to that user: a copied one at once, a `mountWorkspace` by `handOver()`
   * (`chown -R`) before the first command, so the caller may still be filling it (a git clone
   * running while the sandbox starts) when the sandbox is created.
   */
  static async prepare(spec: SandboxSpec, workdir: string | undefined, temporaryPrefix: string, options: { owner?: FileOwner } = {}): Promise<HostWorkspace> {
    if (spec.mountWorkspace !== undefined && spec.hostWorkspace !== undefined) {
      throw new SandboxError(
        'invalid_spec',
        'SandboxSpec: set either "mountWorkspace" (use the folder in place) or "hostWorkspace" (copy it), not both',
      );
    }
    let hostRoot: string;
    let isOwned = false;
    if (spec.mountWorkspace !== undefined) {
      hostRoot = await existingDirectory(spec.mountWorkspace, 'mountWorkspace');
      // Its root at once (the sandbox starts in it); the tree by handOver().
      if (options.owner !== undefined) await lchown(hostRoot, options.owner.uid, options.owner.gid);
    } else {
      const source = spec.hostWorkspace === undefined ? undefined : await existingDirectory(spec.hostWorkspace, 'hostWorkspace');
      hostRoot = await realpath(await mkdtemp(join(tmpdir(), temporaryPrefix)));
      isOwned = true;
      try {
        if (source !== undefined) await copyTree(source, hostRoot, hostRoot);
        if (options.owner !== undefined) await giveTreeTo(hostRoot, options.owner);
      } catch (error) {
        await rm(hostRoot, { recursive: true, force: true });
        throw error;
      }
    }
    const workspace = new HostWorkspace(hostRoot, workdir ?? hostRoot, isOwned, options.owner);
    try {
      for (const [path, data] of Object.entries(spec.files ?? {})) {
        if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
          throw new SandboxError('invalid_spec', `SandboxSpec.files["${path}"]: expected a string or Uint8Array, found ${typeof data}`);
        }
        await workspace.writeFile(path, data);
      }
    } catch (error) {
      await workspace.removeIfOwned();
      throw error;
    }
    return workspace;
  }

  /** Gives a mounted workspace to the owner, once (a copied one already is); call it before a command runs. */
  handOver(): Promise<void> {
    if (this.owner === undefined || this.isOwned) return Promise.resolve();
    const owner = this.owner;
    this.handingOver ??= giveTreeTo(this.hostRoot, owner).catch((error: unknown) => {
      this.handingOver = undefined;
      throw error;
    });
    return this.handingOver;
  }

  /** Host path of a sandbox path, refused when it escapes through `..` or a symbolic link. */
  async toHostPath(path: string): Promise<string> {
    const sandboxPath = resolveWorkspacePath(this.workdir, path);
    const relativePath = posix.relative(posix.resolve(this.workdir), sandboxPath);
    const hostPath = relativePath === '' ? this.hostRoot : join(this.hostRoot, ...relativePath.split('/'));
    await assertNoSymlinkEscape(this.hostRoot, hostPath);
    return hostPath;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const hostPath = await this.toHostPath(path);
    try {
      return new Uint8Array(await readFile(hostPath));
    } catch (error) {
      throw fileError(error, path);
    }
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const hostPath = await this.toHostPath(path);
    try {
      const createdFolder = await mkdir(dirname(hostPath), { recursive: true });
      if (this.owner === undefined) {
        await writeFile(hostPath, data);
        return;
      }
      const handle = await open(hostPath, 'w');
      try {
        await handle.writeFile(data);
        await handle.chown(this.owner.uid, this.owner.gid);
      } finally {
        await handle.close();
      }
      if (createdFolder !== undefined) await giveFoldersTo(createdFolder, dirname(hostPath), this.owner);
    } catch (error) {
      throw fileError(error, path);
    }
  }

  async listFiles(path = '.', options?: { recursive?: boolean }): Promise<FileEntry[]> {
    const hostPath = await this.toHostPath(path);
    let stats;
    try {
      stats = await stat(hostPath);
    } catch (error) {
      throw fileError(error, path);
    }
    if (!stats.isDirectory()) throw new SandboxError('not_a_directory', `"${path}" is not a directory in the workspace`, { subject: path });
    const entries: FileEntry[] = [];
    await listInto(hostPath, '', options?.recursive === true, entries);
    entries.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
    return entries;
  }

  async copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    const source = resolve(hostPath);
    try {
      await lstat(source);
    } catch {
      throw new SandboxError('file_not_found', `copyIn: host path "${hostPath}" does not exist`, { subject: hostPath });
    }
    const destination = await this.toHostPath(sandboxPath);
    const createdFolder = this.owner === undefined ? undefined : await mkdir(dirname(destination), { recursive: true });
    await copyTree(source, destination, this.hostRoot);
    if (this.owner !== undefined) await giveTreeTo(createdFolder ?? destination, this.owner);
  }

  async copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    // The real path: a final symlink (already checked to stay inside) is copied as its target.
    const source = await this.toHostPath(sandboxPath);
    let realSource: string;
    try {
      realSource = await realpath(source);
    } catch (error) {
      throw fileError(error, sandboxPath);
    }
    // Sandbox-written: no special bits, no links out, nothing followed (copy-out-tree.ts).
    await copySandboxTreeOut(realSource, resolve(hostPath));
  }

  async removeIfOwned(): Promise<void> {
    if (this.isOwned) await rm(this.hostRoot, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** `lchown` of `deepest` and each folder above it up to `first` (the folders one `mkdir -p` made). */
async function giveFoldersTo(first: string, deepest: string, owner: FileOwner): Promise<void> {
  for (let folder = deepest; ; folder = dirname(folder)) {
    await lchown(folder, owner.uid, owner.gid);
    if (folder === first || dirname(folder) === folder) return;
  }
}

async function existingDirectory(path: string, field: string): Promise<string> {
  let stats;
  try {
    stats = await stat(path);
  } catch {
    throw new SandboxError('invalid_spec', `SandboxSpec.${field}: folder "${path}" does not exist`, { subject: path });
  }
  if (!stats.isDirectory()) {
    throw new SandboxError('invalid_spec', `SandboxSpec.${field}: "${path}" is not a folder`, { subject: path });
  }
  return realpath(path);
}

async function listInto(hostFolder: string, prefix: string, isRecursive: boolean, entries: FileEntry[]): Promise<void> {
  const dirents = await readdir(hostFolder, { withFileTypes: true });
  for (const dirent of dirents) {
    const path = prefix === '' ? dirent.name : `${prefix}/${dirent.name}`;
    const hostPath = join(hostFolder, dirent.name);
    const type: FileEntry['type'] = dirent.isFile()
      ? 'file'
      : dirent.isDirectory()
        ? 'directory'
        : dirent.isSymbolicLink()
          ? 'symlink'
          : 'other';
    // Files only, as the executor lists: a folder's or a link's own size says nothing portable.
    let size = 0;
    if (type === 'file') {
      try {
        size = (await lstat(hostPath)).size;
      } catch {
        // Removed while listing: keep the entry with size 0.
      }
    }
    entries.push({ path, type, size });
    // Symbolic links are never followed, so a listing cannot wander outside.
    if (isRecursive && type === 'directory') await listInto(hostPath, path, true, entries);
  }
}

/**
 * Copies a file, folder or symbolic link (copied as a link, target unchanged) to
 * `destination`. When `guardRoot` is set, every destination is checked to stay inside it,
 * so an existing symlink in the workspace cannot redirect the copy outside.
 */
async function copyTree(source: string, destination: string, guardRoot: string | undefined): Promise<void> {
  const stats = await lstat(source);
  if (guardRoot !== undefined) await assertNoSymlinkEscape(guardRoot, destination);
  if (stats.isDirectory()) {
    // The root of a copy may itself be the folder we copy into (hostWorkspace → temp root).
    await mkdir(destination, { recursive: true, mode: stats.mode & 0o7777 });
    for (const name of await readdir(source)) {
      await copyTree(join(source, name), join(destination, name), guardRoot);
    }
  } else if (stats.isSymbolicLink()) {
    await rm(destination, { force: true });
    await symlink(await readlink(source), destination);
  } else if (stats.isFile()) {
    await mkdir(dirname(destination), { recursive: true });
    await copyFile(source, destination, fsConstants.COPYFILE_FICLONE);
  }
  // Sockets, fifos and devices are not copied: they mean nothing in another folder.
}

function fileError(error: unknown, path: string): unknown {
  if (SandboxError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new SandboxError('file_not_found', `no file or folder "${path}" in the workspace`, { subject: path, cause: error });
  if (code === 'ENOTDIR') {
    return new SandboxError('not_a_directory', `a parent of "${path}" is a file, not a folder`, { subject: path, cause: error });
  }
  if (code === 'EISDIR') return new SandboxError('file_not_found', `"${path}" is a folder, not a file`, { subject: path, cause: error });
  return error;
}
