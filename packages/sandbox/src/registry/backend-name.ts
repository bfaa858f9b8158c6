import { SandboxError } from '../contract/sandbox-error.js';

/** A backend name: short, lower-case, usable as a CLI choice and a scenario's `environment.type`. */
export const SANDBOX_BACKEND_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** Throws `invalid_spec` unless `name` is a short identifier such as `docker` or `k8s-pod`. */
export function assertSandboxBackendName(name: unknown): asserts name is string {
  if (typeof name === 'string' && SANDBOX_BACKEND_NAME_PATTERN.test(name)) return;
  throw new SandboxError(
    'invalid_spec',
    `sandbox backend name ${JSON.stringify(name)} is not valid: expected a lower-case identifier of 1 to 32 characters (a-z, 0-9, "-"), starting with a letter, e.g. "docker"`,
    { subject: String(name) },
  );
}
