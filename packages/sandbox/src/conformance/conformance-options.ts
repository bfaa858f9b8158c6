import type { SandboxBackendPromises } from '../registry/sandbox-backend.js';
import type { Sandbox, SandboxSpec } from '../sandbox.js';

/** Every check of the suite, by id: the keys of `SandboxConformanceOptions.skips`. */
export const CONFORMANCE_CHECK_IDS = [
  'exit.codes',
  'exit.signals',
  'exit.not-runnable',
  'io.stdin',
  'io.env',
  'io.cwd',
  'io.streaming',
  'output.flood',
  'timeouts.process-tree',
  'timeouts.ignores-sigterm',
  'timeouts.abort',
  'timeouts.background-jobs-and-daemons',
  'files.round-trip',
  'files.dot-dot-and-absolute',
  'files.symlinks-out',
  'files.absolute-link-inside',
  'network.off-by-default',
  'network.switch',
  'network.cut-running-connection',
  'limits.memory',
  'limits.pids',
  'limits.disk',
  'isolation.host-environment',
  'isolation.host-files',
  'isolation.engine-socket',
  'cleanup.dispose',
  'cleanup.killed-host',
] as const;

export type ConformanceCheckId = (typeof CONFORMANCE_CHECK_IDS)[number];

/**
 * Where writes meet a disk bound. `SandboxSpec` has no disk option, so a backend states what its
 * sandboxes do: `bounded` (writes under `path` fail with ENOSPC past `bytesFor(spec)`), or
 * `unbounded` (writes under `path` go to the host's disk as far as it allows).
 */
export type DiskBehaviour =
  | { kind: 'bounded'; path: string; bytesFor(spec: SandboxSpec): number; why: string }
  | { kind: 'unbounded'; path: string; why: string };

/**
 * What happens to a sandbox when the process that made it is SIGKILLed (no exit hook runs):
 * `dies-with-host` (its processes end by themselves), `swept` (it stays until `sweep` finds it
 * by what it was labelled with and removes it: `ab cleanup`), `left-behind` (documented leak:
 * its processes live on, and nothing finds them later).
 */
export type KilledHostBehaviour =
  | { kind: 'dies-with-host' }
  | { kind: 'swept'; sweep(labels: { runId: string; taskId: string }): Promise<{ removedIds: string[] }> }
  | { kind: 'left-behind'; why: string };

export interface SandboxConformanceOptions {
  /** The registered backend name the sandboxes are made with (`createSandbox(name, …)`), also the suite's title. */
  backend: string;
  /** Makes a sandbox instead of the registry (a plugin's own factory, a wrapped backend). */
  create?: (spec: SandboxSpec) => Promise<Sandbox>;
  /** The backend's own options, passed to `createSandbox` when `create` is not given. */
  backendOptions?: unknown;
  /** What the backend promises. Default: what the registry holds for `backend`; none declared means no isolation. */
  promises?: SandboxBackendPromises;
  /** The spec every sandbox starts from: image (docker), rootfs (bwrap), labels. */
  spec?: SandboxSpec;
  /** Laid over every sandbox's spec last, e.g. `{ runtime: 'runsc' }` for docker with gVisor. */
  specOverlay?: Partial<SandboxSpec>;
  /** Skips the whole suite, with the reason in its title (no engine, no rootfs). */
  skipReason?: string;
  /** Checks not run, each with the reason shown in its title. */
  skips?: Partial<Record<ConformanceCheckId, string>>;
  /** How writes are bounded. Default: known for docker, bwrap and local; another backend must say, or the check is skipped saying so. */
  disk?: DiskBehaviour;
  /** What a SIGKILLed host leaves. Default: known for docker, bwrap and local; another backend must say. */
  killedHost?: KilledHostBehaviour;
  /**
   * A script plain `node` runs for the killed-host check: `node SCRIPT <backend> <spec JSON> <marker>`; it makes a
   * sandbox, runs `sleep <marker>` in it and prints `CONFORMANCE_HOST_READY {"id": …}` (see `conformance-host.ts`).
   * Default: `conformance-host.js` beside the built entry.
   */
  hostScript?: string;
}
