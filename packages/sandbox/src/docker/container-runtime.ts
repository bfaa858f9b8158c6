import type Dockerode from 'dockerode';
import { RuntimeUnavailableError, SandboxError } from '../contract/sandbox-error.js';
import { toSandboxError } from './docker-errors.js';
import { GVISOR_RUNTIME, runtimeHint } from './runtime-hint.js';

/** Names dockerd accepts under `runtimes` in daemon.json (`runsc`, `io.containerd.runc.v2`, `kata-runtime`). */
export const RUNTIME_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** What the engine says about one registered runtime. */
export interface RuntimeProfile {
  name: string;
  /** Executable the engine runs (`runc`, `/usr/bin/runsc`). */
  path: string | undefined;
  /** The engine runs it with `--network=none` (our runsc): its containers can only have loopback. */
  isNetworkless: boolean;
}

interface EngineRuntimes {
  Runtimes?: Record<string, { path?: string; runtimeArgs?: string[] | null } | undefined>;
  DefaultRuntime?: string;
}

/** Checks the shape of a runtime name (SandboxSpec.runtime); returns it. */
export function checkRuntimeName(runtime: unknown, field = 'SandboxSpec.runtime'): string {
  if (typeof runtime !== 'string' || !RUNTIME_NAME_PATTERN.test(runtime)) {
    throw new SandboxError('invalid_spec', `${field}: expected a container runtime name registered with the engine, such as "${GVISOR_RUNTIME}" or "runc", found ${JSON.stringify(runtime)}`);
  }
  return runtime;
}

/** True when the runtime's arguments turn its network off (`--network=none`, or `--network none`). */
export function isNetworklessRuntimeArgs(runtimeArgs: readonly string[] | null | undefined): boolean {
  const args = runtimeArgs ?? [];
  return args.some((argument, index) => argument === '--network=none' || (argument === '--network' && args[index + 1] === 'none'));
}

/**
 * The engine's entry for `runtime`, read from `docker info` each time (a runtime registered
 * with SIGHUP shows up without a restart). A name the engine does not list is a
 * RuntimeUnavailableError naming the registered ones and the fix.
 */
export async function resolveRuntime(docker: Dockerode, runtime: string): Promise<RuntimeProfile> {
  let info: EngineRuntimes;
  try {
    info = (await docker.info()) as EngineRuntimes;
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'read the engine information (its runtimes)' });
  }
  const runtimes = info.Runtimes ?? {};
  const entry = runtimes[runtime];
  if (entry === undefined) {
    const registered = Object.keys(runtimes).sort().join(', ') || 'none';
    throw new RuntimeUnavailableError(runtime, `is not registered with the Docker engine (it has: ${registered}); ${runtimeHint(runtime)}`);
  }
  return { name: runtime, path: entry.path, isNetworkless: isNetworklessRuntimeArgs(entry.runtimeArgs) };
}
