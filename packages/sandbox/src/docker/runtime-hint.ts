/** The runtime `scripts/setup.sh --with-gvisor` registers: gVisor's runsc, without network. */
export const GVISOR_RUNTIME = 'runsc';
/** What to run when gVisor is missing or broken. */
export const GVISOR_SETUP_HINT = 'install and register gVisor with `scripts/setup.sh --with-gvisor` (runtime "runsc"), then check it with `ab doctor`';

/** Whether `runtime` is gVisor as our setup registers it (`runsc`, or a variant such as `runsc-debug`). */
export function isGvisorRuntime(runtime: string | undefined): boolean {
  return runtime !== undefined && (runtime === GVISOR_RUNTIME || runtime.startsWith(`${GVISOR_RUNTIME}-`));
}

/** How to fix a missing or failing runtime: our setup for gVisor, the engine's configuration otherwise. */
export function runtimeHint(runtime: string): string {
  return isGvisorRuntime(runtime)
    ? GVISOR_SETUP_HINT
    : 'register it under "runtimes" in /etc/docker/daemon.json and reload dockerd (`kill -HUP $(pidof dockerd)`), then check it with `ab doctor`';
}
