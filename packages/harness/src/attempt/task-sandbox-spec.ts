import type { SandboxSpec } from '@agentbench/sandbox';
import type { Task } from '@agentbench/schemas';

/**
 * What an attempt's sandbox takes from its task alone: image, workdir, network for setup and the
 * runtime, the fields a warm sandbox is started with. The attempt adds its workspace, labels, logs
 * and mounts (AttemptContext.sandboxSpec); a run's pool warms ahead from this before any attempt
 * exists, so both read it here and a warm sandbox matches the take it was made for.
 */
export function taskSandboxSpec(task: Task): SandboxSpec {
  const { environment } = task;
  return {
    image: environment.docker_image,
    workdir: environment.workdir,
    hasNetwork: task.setup.commands.length > 0,
    // Setup runs under runc with network; a network-less runtime (runsc) takes over when it is cut.
    ...(environment.runtime === undefined ? {} : { runtime: environment.runtime }),
  };
}
