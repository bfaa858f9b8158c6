export {
  BwrapSandbox,
  BWRAP_DEFAULT_CPUS,
  BWRAP_DEFAULT_MEMORY_MB,
  BWRAP_DEFAULT_PIDS,
  BWRAP_DEFAULT_WORKDIR,
  BWRAP_HELPER_PROCESSES,
  type BwrapSandboxOptions,
  type BwrapCommandPath,
} from './bwrap-sandbox.js';
export { isBwrapAvailable, assertBwrapAvailable, type BwrapAvailability } from './bwrap-availability.js';
export { CGROUP_PARENT_NAME, type LimitsEnforcement } from './cgroup.js';
