// The engine's floor, shared by sandbox.bench.mjs and pool.bench.mjs: create+start of a bare
// container from the image (`sleep infinity`, no executor, no workspace, hardened like ours, no
// network), each removed before the next. Labelled with the bench's run id, so a crash leaves
// nothing `ab cleanup` cannot find.

/**
 * Measures `runs` bare containers one after the other. Returns each one's create+start time
 * (`starts`, the floor a sandbox start is compared with) and create+start+remove (`lifecycles`), in ms.
 */
export async function measureEngineFloor({ docker, image, runId, runs, taskId = 'bench-floor' }) {
  const starts = [];
  const lifecycles = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const raw = await docker.createContainer({
      Image: image,
      Entrypoint: ['sleep'],
      Cmd: ['infinity'],
      Labels: { 'dev.agentbench.managed': 'true', 'dev.agentbench.run-id': runId, 'dev.agentbench.task-id': taskId },
      HostConfig: { Init: true, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], NetworkMode: 'none' },
    });
    await raw.start();
    starts.push(performance.now() - started);
    await raw.remove({ force: true });
    lifecycles.push(performance.now() - started);
  }
  return { starts, lifecycles };
}
