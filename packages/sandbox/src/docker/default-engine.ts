import Dockerode from 'dockerode';

let shared: Dockerode | undefined;

/**
 * The engine client used when none is passed (DOCKER_HOST or /var/run/docker.sock). One
 * per process, so what is cached per client (the engine's CPU count) is asked once.
 */
export function defaultEngine(): Dockerode {
  shared ??= new Dockerode();
  return shared;
}
