import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';

let shared: Dockerode | undefined;

/**
 * The engine client used when none is passed (DOCKER_HOST or /var/run/docker.sock). One
 * per process, so what is cached per client (the engine's CPU count) is asked once.
 * dockerode (CommonJS, most of this package's load time) is required here, on first use, rather
 * than imported at the top: importing `@agentbench/sandbox` for bwrap or local never loads it.
 */
export function defaultEngine(): Dockerode {
  if (shared === undefined) {
    const DockerodeClient = createRequire(import.meta.url)('dockerode') as typeof Dockerode;
    shared = new DockerodeClient();
  }
  return shared;
}
