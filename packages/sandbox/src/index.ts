// The public surface of @agentbench/sandbox, in one place (at most 60 names: docs/architecture.md).
// Tests import the files they test directly; a name is here because an app, a package or a README example uses it.

// The contract every backend implements (contract/), and how a sandbox path is resolved.
export { EXIT_CODE_TIMEOUT, EXIT_CODE_KILLED, type SandboxSpec, type ExecOptions, type ExecResult, type FileEntry, type Sandbox, type SandboxSnapshot } from './contract/sandbox.js';
export { SandboxError } from './contract/sandbox-error.js';
export { resolveWorkspacePath } from './core/workspace/path-safety.js';
export { symlinkContainment } from './core/workspace/symlink-containment.js';

// Command output: sandbox-written, so always bounded (logs, results, what is printed).
export { DEFAULT_LOG_CAP_BYTES } from './core/output/command-log.js';
export { outputExcerpt, MESSAGE_EXCERPT_CHARACTERS } from './core/output/output-excerpt.js';

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
  type CreateSandboxOptions,
  type SandboxBackendDefinition,
  type SandboxBackendPromises,
  type SandboxBackendTypes,
} from './registry/index.js';

// The live-sandbox tracker: disposes the sandboxes of every backend this process still has.
export { disposeAllSandboxes } from './core/live-sandboxes.js';

// The backends, for embedders who want one directly.
export { LocalSandbox } from './local/local-sandbox.js';
export { BwrapSandbox } from './bwrap/bwrap-sandbox.js';
export { isBwrapAvailable } from './bwrap/bwrap-availability.js';
export { ensureRootfs } from './bwrap/ensure-rootfs.js';
export { DockerSandbox } from './docker/docker-sandbox.js';
export { NetworkHolderPool, NETWORK_HOLDER_ROLE } from './docker/network-holder-pool.js';
export { DEFAULT_DOCKER_IMAGE } from './docker/container-config.js';
export { defaultEngine } from './core/engine/default-engine.js';
export { RUNTIME_NAME_PATTERN } from './docker/container-runtime.js';
export { GVISOR_RUNTIME } from './docker/runtime-hint.js';
export { checkGvisorRegistered } from './docker/gvisor-availability.js';

// Container hygiene (`ab cleanup`, `ab doctor`).
export {
  listManagedContainers,
  removeManagedContainers,
  type ManagedContainer,
  type ManagedContainerFilter,
  type RemovedContainers,
} from './docker/managed-containers.js';
export { listManagedImages, type ManagedImage } from './docker/managed-images.js';

// A container's CPU seconds from its cgroup (a run's efficiency figure).
export { readContainerCpuSeconds } from './docker/container-cpu-seconds.js';

// Pools of warm sandboxes (suites, matrices, embedders).
export { SandboxPool, createDockerSandboxPool, type SandboxPoolStats, type DockerSandboxPool } from './pool/index.js';

// Environment check (`ab doctor`).
export { runDoctor, type DoctorCheck } from './doctor/run-doctor.js';

// Several Docker engines: placement by free capacity, health, image transfer without a registry, cleanup on each.
export {
  EngineSet,
  pingEngine,
  checkEngines,
  findEngineStopEvidence,
  type Engine,
  type EngineLease,
  type EngineHealth,
  type ImageTransferProgress,
} from './engines/index.js';
