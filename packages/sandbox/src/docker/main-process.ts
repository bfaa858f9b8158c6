import type { Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { executorArgv } from '../core/executor/executor-launch.js';
import { toSandboxError } from './docker-errors.js';
import { demultiplex } from './engine-exec.js';

/** Written to stderr by the main process when its executor ended (the attach connection stays open). */
export const EXECUTOR_EXITED_LINE = 'agentbench-main: executor exited';
/** Written to stderr when the image has no python3: the sandbox then uses one engine exec per command. */
export const NO_EXECUTOR_LINE = 'agentbench-main: no executor';

/**
 * The container's main process, under docker-init: the executor, started with the
 * container (no `docker exec` round trip before the first command), then `sleep
 * infinity`, so the container outlives an executor that dies and a new one can be
 * started with an exec.
 */
const mainScript = `if command -v "$1" >/dev/null 2>&1; then
  "$@"
  echo "${EXECUTOR_EXITED_LINE} ($?)" >&2
else
  echo "${NO_EXECUTOR_LINE}: $1 not found in the image" >&2
fi
exec sleep infinity`;

/** Entrypoint of a sandbox container whose executor serves `workdir`. */
export function mainProcessEntrypoint(workdir: string): string[] {
  return ['/bin/sh', '-c', mainScript, 'agentbench-main', ...executorArgv(workdir)];
}

export interface AttachedMainProcess {
  /** The container's stdin (write) and its multiplexed stdout/stderr. */
  stream: Duplex;
  /** Settles when the engine closes the connection (the container stopped). */
  ended: Promise<void>;
}

/**
 * Attaches to a created, not yet started container (so nothing it prints is missed);
 * the container must have been created with OpenStdin and the Attach* flags.
 */
export async function attachMainProcess(
  docker: Dockerode,
  container: Dockerode.Container,
  sinks: { onStdout(chunk: Buffer): void; onStderr(chunk: Buffer): void },
): Promise<AttachedMainProcess> {
  let stream: Duplex;
  try {
    stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as unknown as Duplex;
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'attach to the sandbox container' });
  }
  return { stream, ended: demultiplex(docker, stream, sinks) };
}
