import { spawn } from 'node:child_process';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { buildContainerLabels } from '../core/engine/labels.js';
import { ImageMissingError, SandboxError } from '../contract/sandbox-error.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { isDirectory } from '@agentbench/helpers';

export interface EnsureRootfsOptions {
  /** Runner image whose file system is exported, e.g. `agentbench/py-runner:0.1.0`. */
  image: string;
  /** Target folder. Default `~/.cache/agentbench/rootfs/<image, sanitised>` (`$XDG_CACHE_HOME` honoured). */
  dir?: string;
  /** Docker client to export through. Default: one shared per process (DOCKER_HOST or the local socket). */
  docker?: Docker;
  /** Export again even when the folder exists (e.g. after rebuilding the image under the same tag). */
  refresh?: boolean;
}

/** What `ensureRootfs` records beside the folder (`<dir>.image.json`): the image's own settings. */
export interface RootfsDescription {
  image: string;
  imageId: string;
  /** The image's `ENV`, as `NAME=value`: the bwrap backend starts commands with it. */
  env: string[];
  workingDir: string;
  exportedAt: string;
}

/** Where the description of an exported rootfs folder is kept. */
export function rootfsDescriptionPath(dir: string): string {
  return `${resolve(dir)}.image.json`;
}

/** The description of a rootfs folder, when it was exported by `ensureRootfs`. */
export async function readRootfsDescription(dir: string): Promise<RootfsDescription | undefined> {
  try {
    const parsed = JSON.parse(await readFile(rootfsDescriptionPath(dir), 'utf8')) as Partial<RootfsDescription>;
    if (!Array.isArray(parsed.env) || !parsed.env.every((entry) => typeof entry === 'string')) return undefined;
    return {
      image: String(parsed.image ?? ''),
      imageId: String(parsed.imageId ?? ''),
      env: parsed.env,
      workingDir: String(parsed.workingDir ?? ''),
      exportedAt: String(parsed.exportedAt ?? ''),
    };
  } catch {
    return undefined;
  }
}

/** Default folder of an image's exported root file system. */
export function defaultRootfsDir(image: string): string {
  const cacheHome = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(cacheHome, 'agentbench', 'rootfs', sanitiseImageName(image));
}

/** `agentbench/py-runner:0.1.0` → `agentbench_py-runner_0.1.0`: one safe folder name per image and tag. */
export function sanitiseImageName(image: string): string {
  return image.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
}

/**
 * Exports the image's file system once into a folder, for the bwrap backend, and returns
 * the folder. A folder that exists is complete (extraction goes into `<dir>.partial-<pid>`
 * and is renamed at the end), so a second call returns at once without contacting Docker.
 */
export async function ensureRootfs(options: EnsureRootfsOptions): Promise<string> {
  const { image } = options;
  if (typeof image !== 'string' || image.trim() === '') {
    throw new SandboxError('invalid_spec', 'ensureRootfs: option "image" must be a non-empty image name such as agentbench/py-runner:0.1.0');
  }
  const dir = resolve(options.dir ?? defaultRootfsDir(image));
  if (options.refresh !== true && (await isDirectory(dir))) return dir;

  const docker = options.docker ?? defaultEngine();
  let imageInfo: Docker.ImageInspectInfo;
  try {
    imageInfo = await docker.getImage(image).inspect();
  } catch (error) {
    throw imageLookupError(image, error);
  }

  await mkdir(dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  await removeTree(partial);
  await mkdir(partial);
  let container: Docker.Container | undefined;
  try {
    // Created, never started: its file system is the image's plus Docker's few stubs (/etc/hosts, /.dockerenv).
    container = await docker.createContainer({
      Image: image,
      Cmd: ['/bin/true'],
      // Managed like every container of ours, so `ab cleanup` finds it if we die mid-export.
      Labels: buildContainerLabels({ purpose: 'rootfs-export' }),
      NetworkDisabled: true,
    });
    const archive = await container.export();
    await extractTar(archive, partial);
    // Written before the rename: a folder that exists always has its description beside it.
    const description: RootfsDescription = {
      image,
      imageId: imageInfo.Id,
      env: imageInfo.Config?.Env ?? [],
      workingDir: imageInfo.Config?.WorkingDir ?? '',
      exportedAt: new Date().toISOString(),
    };
    await writeFile(rootfsDescriptionPath(dir), `${JSON.stringify(description, null, 2)}\n`);
    if (options.refresh === true) await removeTree(dir);
    try {
      await rename(partial, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another process finished the same export first: its folder is as good as ours.
      if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await isDirectory(dir))) {
        await removeTree(partial);
      } else {
        throw error;
      }
    }
    return dir;
  } catch (error) {
    await removeTree(partial).catch(() => undefined);
    if (SandboxError.isInstance(error)) throw error;
    throw new SandboxError('internal', `could not export the file system of image ${image} into ${dir}: ${messageOf(error)}`, {
      subject: image,
      cause: error,
    });
  } finally {
    if (container !== undefined) await container.remove({ force: true }).catch(() => undefined);
  }
}

function imageLookupError(image: string, error: unknown): SandboxError {
  const statusCode = (error as { statusCode?: number }).statusCode;
  if (statusCode === 404) {
    return new ImageMissingError(image, 'Build it first (see docker/py-runner/build-offline.sh) or pass an existing rootfs folder.');
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES') {
    return new SandboxError(
      'engine_unavailable',
      `cannot reach the Docker engine to export image ${image} (${code}); start Docker or pass an already exported rootfs folder`,
      { subject: image, cause: error },
    );
  }
  return new SandboxError('engine_unavailable', `cannot inspect image ${image}: ${messageOf(error)}`, { subject: image, cause: error });
}

async function extractTar(archive: NodeJS.ReadableStream, target: string): Promise<void> {
  // Numeric owners: the image's uids must not be remapped through the host's /etc/passwd.
  const tar = spawn('tar', ['-x', '-f', '-', '-C', target, '--numeric-owner'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let errorOutput = '';
  tar.stderr.setEncoding('utf8');
  tar.stderr.on('data', (chunk: string) => {
    if (errorOutput.length < 4096) errorOutput += chunk;
  });
  const exited = new Promise<void>((resolvePromise, reject) => {
    tar.on('error', (error) => reject(new Error(`cannot run tar: ${error.message}`)));
    tar.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`tar exited with ${code ?? signal}: ${errorOutput.trim()}`));
    });
  });
  await Promise.all([pipeline(archive, tar.stdin), exited]);
}

async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 2 });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
