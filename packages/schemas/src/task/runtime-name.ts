import * as v from 'valibot';

/**
 * The name of an OCI runtime registered with the Docker engine (`runsc` for gVisor, `runc`,
 * `io.containerd.runc.v2`): what dockerd accepts under `runtimes` in daemon.json. The sandbox
 * checks the engine knows it; here only its shape.
 */
export const RuntimeNameSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'expected a container runtime name such as "runsc" (letters, digits, ".", "_", "-")'),
);
