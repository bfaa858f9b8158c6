import type { SandboxBackendPromises } from '../registry/sandbox-backend.js';
import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';

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

/**
 * Promises of the `Sandbox` contract a backend, or one configuration of it, may declare it does not keep. The checks
 * that test such a promise then expect the documented behaviour, named in their titles, instead of skipping:
 *
 * - `memoryLimitEndsOnlyTheCommand`: a command that hits `limits.memoryMb` ends (137 with `killedBy: 'oom'`) and the
 *   sandbox goes on. Not kept: the limit ends the whole sandbox; the command and every later call reject with a
 *   `SandboxError` whose message matches `endedError`, other sandboxes go on, and dispose still works (docker under
 *   gVisor: gVisor's kernel lives in the container's memory cgroup).
 * - `pidsLimitEndsOnlyTheCommand`: a fork bomb that hits `limits.pids` fails to fork and the sandbox goes on. Not kept:
 *   the bomb is still contained, but the sandbox may end with it (or while the bomb's forks are reaped); every later
 *   call then rejects with a `SandboxError` matching `endedError`, other sandboxes go on, and dispose still works. Either
 *   outcome passes (docker under gVisor on the ptrace platform: gVisor's own host threads grow with the bomb's churn
 *   and count against the container's pids limit, which its kernel cannot survive reaching).
 * - `networkReconnects`: `setNetwork(true)` after `setNetwork(false)` brings the network back. Not kept: the call rejects
 *   with a `SandboxError` matching `refusal`, the sandbox stays cut off and usable (docker under a runtime the engine
 *   runs without network: gVisor).
 * - `absoluteLinksInsideFollowed`: the file methods follow a link the sandbox made whose absolute target lies inside the
 *   workspace. Not kept: they refuse it as `symlink_blocked`, as any absolute link, while commands follow it (bwrap:
 *   the file methods resolve links on the host, where the workspace has another path).
 */
export interface PromisesNotKept {
  memoryLimitEndsOnlyTheCommand?: { why: string; endedError: RegExp };
  pidsLimitEndsOnlyTheCommand?: { why: string; endedError: RegExp };
  networkReconnects?: { why: string; refusal: RegExp };
  absoluteLinksInsideFollowed?: { why: string };
}

/** The names a `notKept` declaration may use. */
export const CONTRACT_PROMISES_THAT_MAY_BE_NOT_KEPT = ['memoryLimitEndsOnlyTheCommand', 'pidsLimitEndsOnlyTheCommand', 'networkReconnects', 'absoluteLinksInsideFollowed'] as const;

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
  /** Contract promises this backend (or configuration) does not keep: the suite checks the documented behaviour instead. */
  notKept?: PromisesNotKept;
  /** Checks not run, each with the reason shown in its title (for a check that cannot run at all; a promise not kept goes in `notKept`). */
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
