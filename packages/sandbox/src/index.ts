// The public surface of @agentbench/sandbox, in one place.

// The interface every backend implements.
export {
  EXIT_CODE_TIMEOUT,
  EXIT_CODE_KILLED,
  type BackendName,
  type BuiltinBackendName,
  type SandboxLimits,
  type SandboxSpec,
  type ExecOptions,
  type ExecResult,
  type FileEntry,
  type Sandbox,
} from './contract/sandbox.js';

// Errors.
export { SandboxError, PathEscapeError, SymlinkBlockedError, ImageMissingError, RuntimeUnavailableError, type SandboxErrorKind } from './contract/sandbox-error.js';

// Path safety: how every backend resolves a sandbox path (documented in the README; the published-package test uses it).
export { resolveWorkspacePath, workspacePathToHost, assertNoSymlinkEscape } from './core/workspace/path-safety.js';
export { symlinkContainment } from './core/workspace/symlink-containment.js';

// The backend registry: every sandbox is made through it, by backend name.
export {
  createSandbox,
  createSandboxPool,
  registerSandboxBackend,
  listSandboxBackends,
  sandboxBackendNames,
  sandboxBackendDefinition,
  assertSandboxBackendRegistered,
  sandboxBackendRegistry,
  defineSandboxBackend,
  SandboxBackendRegistry,
  type CreateSandboxOptions,
  type SandboxPoolTypes,
  type SandboxBackend,
  type SandboxBackendDefinition,
  type SandboxBackendPromises,
  type SandboxBackendInfo,
  type SandboxBackendTypes,
} from './registry/index.js';

// Local backend (no isolation).
export { LocalSandbox, type LocalSandboxOptions } from './local/local-sandbox.js';
export { DEFAULT_EXEC_TIMEOUT_SEC, DEFAULT_OUTPUT_CAP_BYTES } from './core/exec-settings.js';

// Command output: sandbox-written, so always bounded (logs, results, what is printed).
export { DEFAULT_LOG_CAP_BYTES } from './core/output/command-log.js';
export { outputExcerpt, MESSAGE_EXCERPT_CHARACTERS } from './core/output/output-excerpt.js';

// bubblewrap backend.
export {
  BwrapSandbox,
  BWRAP_DEFAULT_WORKDIR,
  BWRAP_DEFAULT_MEMORY_MB,
  BWRAP_DEFAULT_PIDS,
  BWRAP_DEFAULT_CPUS,
  type BwrapSandboxOptions,
  type BwrapCommandPath,
} from './bwrap/bwrap-sandbox.js';
export { isBwrapAvailable, assertBwrapAvailable, type BwrapAvailability } from './bwrap/bwrap-availability.js';
export { type LimitsEnforcement } from './bwrap/cgroup.js';

// Root file systems for bwrap, exported from a runner image.
export {
  ensureRootfs,
  defaultRootfsDir,
  type EnsureRootfsOptions,
  type RootfsDescription,
} from './bwrap/ensure-rootfs.js';

// Docker backend, container hygiene.
export { DockerSandbox, type DockerSandboxOptions, type DockerCommandPath } from './docker/docker-sandbox.js';
export { NetworkHolderPool, NetworkHolder, NETWORK_HOLDER_ROLE, type NetworkHolderPoolOptions } from './docker/network-holder-pool.js';
export {
  DEFAULT_DOCKER_IMAGE,
  DEFAULT_WORKDIR,
  DEFAULT_MEMORY_MB,
  DEFAULT_CPUS,
  DEFAULT_PIDS,
  SANDBOX_NETWORK,
} from './docker/container-config.js';
export {
  LABEL_MANAGED,
  LABEL_RUN_ID,
  LABEL_TASK_ID,
  LABEL_PID,
  LABEL_HOSTNAME,
  LABEL_ROLE,
  LABEL_POOL,
  POOL_SANDBOX_ROLE,
} from './core/engine/labels.js';
export { defaultEngine } from './core/engine/default-engine.js';
export {
  listManagedContainers,
  removeManagedContainers,
  type ManagedContainer,
  type ManagedContainerFilter,
  type ManagedContainerOptions,
  type RemovedContainers,
} from './docker/managed-containers.js';
export { listManagedImages, removeManagedImages, type ManagedImage, type RemovedImages } from './docker/managed-images.js';
// Pools of warm sandboxes (suites, matrices, embedders).
export {
  SandboxPool,
  DEFAULT_POOL_SIZE,
  poolKeyOf,
  HAND_OUT_FIELDS,
  createDockerSandboxPool,
  DockerWarmSource,
  type SandboxPoolOptions,
  type SandboxPoolStats,
  type PoolKey,
  type PoolKeyDecision,
  type WarmSandboxSource,
  type DockerSandboxPool,
  type DockerSandboxPoolOptions,
  type WarmDockerSandbox,
} from './pool/index.js';
export { disposeAllSandboxes } from './core/live-sandboxes.js';
export { IMAGE_MISSING_HINT } from './docker/docker-errors.js';
// Container runtimes (gVisor's runsc): names, the engine's entry, whether gVisor is registered.
export { RUNTIME_NAME_PATTERN, resolveRuntime, type RuntimeProfile } from './docker/container-runtime.js';
export { GVISOR_RUNTIME, GVISOR_SETUP_HINT } from './docker/runtime-hint.js';
export { checkGvisorRegistered, type GvisorAvailability } from './docker/gvisor-availability.js';

// Environment check (`ab doctor`).
export { runDoctor, type DoctorCheck, type DoctorOptions, type DoctorReport, type DoctorStatus } from './doctor/run-doctor.js';

// Several Docker engines: placement by free capacity, health, image transfer without a registry, cleanup on each.
export {
  EngineSet,
  createEngineClient,
  engineClientOptions,
  pingEngine,
  ensureImage,
  checkEngines,
  findEngineStopEvidence,
  DEFAULT_PING_TIMEOUT_MS,
  type CheckEnginesOptions,
  type Engine,
  type EngineLease,
  type EngineSetOptions,
  type EngineHealth,
  type EnsureImageOptions,
  type EnsureImageResult,
  type ImageTransferProgress,
} from './engines/index.js';
