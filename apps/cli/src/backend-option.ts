import { listSandboxBackends, sandboxBackendNames, type SandboxBackendPromises } from '@agentbench/sandbox';

/** How a backend's isolation reads in help and in `ab doctor`. */
export function describeIsolation(promises: SandboxBackendPromises | undefined): string {
  const isolation = promises?.isolation;
  if (isolation === undefined) return 'promises no isolation';
  return isolation === 'none' ? 'no isolation' : isolation;
}

/**
 * `--backend`, on the commands that run attempts (run-task, run-agent): its choices and help are the
 * sandbox registry's backends, so a backend registered before the CLI is built is offered too.
 */
export function backendOption() {
  return {
    type: 'string' as const,
    choices: sandboxBackendNames(),
    default: 'docker',
    describe: `Sandbox backend of every sandbox the attempt makes: ${listSandboxBackends()
      .map((backend) => `${backend.name} (${describeIsolation(backend.promises)})`)
      .join(', ')}. local runs commands on this host: trusted tasks only`,
  };
}
