import type Dockerode from 'dockerode';
import { engineMessage, isNotFound } from '../docker/docker-errors.js';
import { SandboxError } from '../contract/sandbox-error.js';

export interface ImageTransferProgress {
  /** Bytes of the `docker save` archive sent so far. */
  bytes: number;
}

export interface EnsureImageOptions {
  /** The engine that has the image (default: the one the caller calls local). */
  source: Dockerode;
  /** Names the target in messages. */
  targetName: string;
  onProgress?: (progress: ImageTransferProgress) => void;
}

export type EnsureImageResult = { status: 'present' } | { status: 'sent'; bytes: number; durationMs: number };

async function hasImage(docker: Dockerode, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/**
 * Makes sure `target` has `image`: present → nothing to do; missing → the source engine's `docker save`
 * archive is streamed into the target's load endpoint (no registry, nothing on disk), then checked.
 */
export async function ensureImage(target: Dockerode, image: string, options: EnsureImageOptions): Promise<EnsureImageResult> {
  const where = `engine '${options.targetName}'`;
  try {
    if (await hasImage(target, image)) return { status: 'present' };
  } catch (error) {
    throw new SandboxError('engine_unavailable', `${where}: cannot check image ${image}: ${engineMessage(error)}`, { subject: options.targetName, cause: error });
  }
  const started = performance.now();
  let archive: NodeJS.ReadableStream;
  try {
    archive = await options.source.getImage(image).get();
  } catch (error) {
    const reason = isNotFound(error) ? 'the local engine does not have it either (build it with `pnpm ab image build`)' : engineMessage(error);
    throw new SandboxError('image_missing', `cannot send image ${image} to ${where}: ${reason}`, { subject: image, cause: error });
  }
  let bytes = 0;
  archive.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    options.onProgress?.({ bytes });
  });
  try {
    const response = await target.loadImage(archive, { quiet: true });
    // The load endpoint reports failures inside its JSON stream, with status 200.
    const body = await readAll(response);
    const failure = /"error(?:Detail)?"\s*:\s*(?:\{\s*"message"\s*:\s*)?"([^"]*)"/.exec(body);
    if (failure !== null) throw new Error(failure[1]);
  } catch (error) {
    throw new SandboxError('engine_unavailable', `${where}: loading image ${image} failed after ${bytes} bytes: ${engineMessage(error)}`, { subject: options.targetName, cause: error });
  }
  if (!(await hasImage(target, image).catch(() => false))) {
    throw new SandboxError('internal', `${where}: image ${image} was sent (${bytes} bytes) but the engine does not list it`, { subject: image });
  }
  return { status: 'sent', bytes, durationMs: performance.now() - started };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}
