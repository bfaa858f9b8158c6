import type Dockerode from 'dockerode';
import { ImageMissingError, RuntimeUnavailableError, SandboxError } from '../contract/sandbox-error.js';
import { runtimeHint } from './runtime-hint.js';

/** Shown with a missing image: how to get it. */
export const IMAGE_MISSING_HINT =
  'Build it with `pnpm ab image build` (or docker/py-runner/build-offline.sh), or pull it with `docker pull <image>`.';

interface EngineFailure {
  statusCode?: number;
  code?: string;
  syscall?: string;
  address?: string;
  json?: { message?: string } | null;
  reason?: string;
  message?: string;
}

const connectionCodes = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'EPERM', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** The engine's own message of an HTTP error, without dockerode's "(HTTP code N) ..." wrapping. */
export function engineMessage(error: unknown): string {
  const failure = error as EngineFailure;
  const message = failure.json?.message ?? failure.message ?? String(error);
  return message.trim();
}

export function isNotFound(error: unknown): boolean {
  return (error as EngineFailure).statusCode === 404;
}

/** True when the engine could not be reached at all (socket missing, refused, no permission). */
export function isEngineUnreachable(error: unknown): boolean {
  const failure = error as EngineFailure;
  return failure.statusCode === undefined && failure.code !== undefined && connectionCodes.has(failure.code);
}

/** Where the client talks to the engine, for messages. */
export function describeEngine(docker: Dockerode): string {
  const modem = docker.modem as unknown as { socketPath?: unknown; socketPathCache?: unknown; host?: string; port?: string | number; protocol?: string };
  if (typeof modem.socketPath === 'string') return modem.socketPath;
  if (typeof modem.socketPathCache === 'string') return modem.socketPathCache;
  if (modem.host !== undefined) return `${modem.protocol ?? 'http'}://${modem.host}:${modem.port ?? ''}`;
  return 'the default Docker socket (/var/run/docker.sock)';
}

export function engineUnavailableError(docker: Dockerode, error: unknown): SandboxError {
  const failure = error as EngineFailure;
  const code = failure.code === undefined ? '' : ` (${failure.code})`;
  const permission = failure.code === 'EACCES' || failure.code === 'EPERM' ? ' or add your user to the docker group' : '';
  return new SandboxError(
    'engine_unavailable',
    `cannot reach the Docker engine at ${describeEngine(docker)}${code}: start dockerd (e.g. \`sudo systemctl start docker\`)${permission}, or point DOCKER_HOST at a running engine`,
    { subject: describeEngine(docker), cause: error },
  );
}

/**
 * Maps an Engine API failure to a SandboxError: unreachable engine, missing image, a
 * spec the engine refused (limits beyond the host), anything else as internal.
 * `action` says what we were doing ("create container").
 */
export function toSandboxError(docker: Dockerode, error: unknown, context: { action: string; image?: string; runtime?: string }): SandboxError {
  if (SandboxError.isInstance(error)) return error;
  if (isEngineUnreachable(error)) return engineUnavailableError(docker, error);
  const failure = error as EngineFailure;
  const message = engineMessage(error);
  const runtimeFailure = runtimeFailureOf(message, context.runtime);
  if (runtimeFailure !== undefined) {
    return new RuntimeUnavailableError(runtimeFailure.runtime, `${runtimeFailure.problem} (while trying to ${context.action}: ${message}); ${runtimeHint(runtimeFailure.runtime)}`, { cause: error });
  }
  if (context.image !== undefined && failure.statusCode === 404 && /no such image|not found|pull access denied/i.test(message)) {
    return new ImageMissingError(context.image, IMAGE_MISSING_HINT.replace('<image>', context.image));
  }
  if (failure.statusCode === 400 || (failure.statusCode === 500 && /range of cpus|minimum memory|invalid|cannot be/i.test(message))) {
    return new SandboxError('invalid_spec', `the Docker engine refused to ${context.action}: ${message}`, { cause: error });
  }
  return new SandboxError('internal', `Docker engine error while trying to ${context.action}: ${message}`, { cause: error });
}

/**
 * A failure that is the container runtime's: a name the engine does not know ("Unknown runtime
 * specified X", older engines "unknown or invalid runtime name: X"), or, for a container that
 * asked for `runtime`, the OCI runtime failing to create or start it.
 */
function runtimeFailureOf(message: string, runtime: string | undefined): { runtime: string; problem: string } | undefined {
  const unknown = /unknown runtime specified:?\s*(\S+)|unknown or invalid runtime name:?\s*(\S+)/i.exec(message);
  if (unknown !== null) return { runtime: unknown[1] ?? unknown[2] ?? runtime ?? '?', problem: 'is not registered with the Docker engine' };
  if (runtime !== undefined && /OCI runtime|runsc|gvisor|failed to create shim|failed to start shim/i.test(message)) {
    return { runtime, problem: 'failed to run the container' };
  }
  return undefined;
}
