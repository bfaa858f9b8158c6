import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import type { PoolKey } from './pool-key.js';

/** Whether a spec can be served warm, and under which key. */
export type PoolKeyDecision = { isPoolable: true; key: PoolKey } | { isPoolable: false; reason: string };

/**
 * What a SandboxPool needs from a backend: start a warm sandbox for a key, hand it out for a
 * spec, make one cold, remove a warm one. `DockerWarmSource` is the Docker one; tests use a fake.
 */
export interface WarmSandboxSource<Warm, Made extends Sandbox = Sandbox> {
  /** Names the backend and where it runs, for messages ("the Docker engine at /var/run/docker.sock"). */
  readonly description: string;
  /** The key of `spec`, or why it cannot be served warm (then `take` creates it cold). */
  keyOf(spec: SandboxSpec): Promise<PoolKeyDecision>;
  /** Memory a warm sandbox of this key holds against the pool's `maxMemoryBytes`. */
  memoryBytes(key: PoolKey): number;
  /** Starts a sandbox for `key` (executor ready, workspace empty), carrying `labels`. */
  startWarm(key: PoolKey, labels: Record<string, string>): Promise<Warm>;
  /** Hands `warm` out for `spec` (workspace put in, env set). On failure the pool removes `warm`. */
  claim(warm: Warm, spec: SandboxSpec): Promise<Made>;
  /** A sandbox made from scratch: the fallback when nothing is warm. */
  createCold(spec: SandboxSpec): Promise<Made>;
  disposeWarm(warm: Warm): Promise<void>;
}
