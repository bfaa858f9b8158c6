// Child process for the gVisor leftover tests: creates a sandbox under runsc with network (its setup runs under runc),
// cuts the network (the move: a temporary image, then a runsc container), says so, then either waits to be
// SIGKILLed (`wait`) or exits without disposing (`exit`), leaving its sandbox to the exit sweep.
import { DockerSandbox } from '../../src/docker/docker-sandbox.js';

const [mode = 'wait', runId = 'test', taskId = 'gvisor-move-child', image = 'agentbench/py-runner:0.1.0'] = process.argv.slice(2);
const sandbox = await DockerSandbox.create({ image, runtime: 'runsc', hasNetwork: true, labels: { runId, taskId } });
await sandbox.exec('echo from-setup > setup.txt');
await sandbox.setNetwork(false);
const moved = await sandbox.exec('cat setup.txt');
if (moved.stdout !== 'from-setup\n' || sandbox.runtimeMoveImage === undefined) {
  console.error(`the move did not happen as expected: ${JSON.stringify(moved)}, image ${String(sandbox.runtimeMoveImage)}`);
  process.exit(3);
}
console.log(`ready ${sandbox.containerId} ${sandbox.runtimeMoveImage}`);
if (mode === 'exit') process.exit(0);
setInterval(() => undefined, 60_000);
