export { SANDBOX_BACKEND_NAME_PATTERN, assertSandboxBackendName } from './backend-name.js';
export { defineSandboxBackend, type SandboxBackend, type SandboxBackendDefinition, type SandboxBackendPromises } from './sandbox-backend.js';
export { SandboxBackendRegistry, type SandboxBackendInfo } from './sandbox-backend-registry.js';
export { dockerBackend, bwrapBackend, localBackend, type SandboxBackendTypes } from './builtin-backends.js';
export { sandboxBackendRegistry, registerSandboxBackend, listSandboxBackends, sandboxBackendNames, sandboxBackendDefinition, assertSandboxBackendRegistered } from './default-registry.js';
export { createSandbox, type CreateSandboxOptions } from './create-sandbox.js';
export { createSandboxPool, type SandboxPoolTypes } from './create-sandbox-pool.js';
