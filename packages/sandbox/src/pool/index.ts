export { HostIdleCapacity, ALWAYS_IDLE, type IdleCapacity, type HostIdleCapacityOptions } from './idle-capacity.js';
export { SandboxPool, DEFAULT_POOL_SIZE, type SandboxPoolOptions, type SandboxPoolStats } from './sandbox-pool.js';
export { poolKeyOf, HAND_OUT_FIELDS, type PoolKey } from './pool-key.js';
export type { WarmSandboxSource, PoolKeyDecision } from './warm-sandbox-source.js';
export { createDockerSandboxPool, DockerWarmSource, type DockerSandboxPool, type DockerSandboxPoolOptions, type WarmDockerSandbox } from './docker-sandbox-pool.js';
