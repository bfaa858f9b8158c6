// Child process for the signal tests: creates one Docker sandbox, says so, then waits.
// `host-handler` mode installs its own SIGINT listener first, as a host application would;
// `pool` mode joins a network holder from a pool that keeps one more spare.
import { DockerSandbox } from '../../src/docker/docker-sandbox.js';
import { NetworkHolderPool } from '../../src/docker/network-holder-pool.js';

const [mode = 'plain', runId = 'test', image = 'agentbench/py-runner:0.1.0'] = process.argv.slice(2);
if (mode === 'host-handler') {
  process.on('SIGINT', () => {
    console.log('host-handled');
    process.exit(0);
  });
}
const pool = mode === 'pool' ? new NetworkHolderPool({ labels: { runId, taskId: 'signal-pool-holder' } }) : undefined;
await pool?.warm(image);
const sandbox = await DockerSandbox.create({ image, labels: { runId, taskId: `signal-${mode}` } }, pool === undefined ? {} : { networkHolders: pool });
await pool?.warm(image);
console.log(`ready ${sandbox.containerId}`);
setInterval(() => undefined, 60_000);
