// @agentbench/sandbox/conformance: the checks every sandbox backend passes, as vitest tests (vitest is a peer dependency of this entry only).
export { describeSandboxConformance } from './describe-sandbox-conformance.js';
export {
  CONFORMANCE_CHECK_IDS,
  CONTRACT_PROMISES_THAT_MAY_BE_NOT_KEPT,
  type PromisesNotKept,
  type ConformanceCheckId,
  type DiskBehaviour,
  type KilledHostBehaviour,
  type SandboxConformanceOptions,
} from './conformance-options.js';
export { CONFORMANCE_HOST_READY, type ConformanceHostReport } from './conformance-host-protocol.js';
