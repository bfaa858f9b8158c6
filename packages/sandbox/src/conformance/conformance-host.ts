// The killed-host check's child process (see conformance-host-protocol.ts): plain `node` runs the built file
// (`dist/conformance-host.js`), makes one sandbox by backend name, starts a long command, says so, and waits to be SIGKILLed.
import { createSandbox } from '../registry/create-sandbox.js';
import { CONFORMANCE_HOST_READY, type ConformanceHostReport } from './conformance-host-protocol.js';

const [backend, specJson, marker] = process.argv.slice(2);
if (backend === undefined || specJson === undefined || marker === undefined || !/^[\d.]+$/.test(marker)) {
  console.error('usage: node conformance-host.js <backend name> <SandboxSpec as JSON> <sleep seconds used as a marker>');
  process.exit(2);
}
const sandbox = await createSandbox(backend, JSON.parse(specJson) as Record<string, unknown>);
const report: ConformanceHostReport = { id: sandbox.id, workdir: sandbox.workdir };
let isReported = false;
sandbox
  .exec(`echo started; exec sleep ${marker}`, {
    timeoutSec: 600,
    onStdout: () => {
      if (isReported) return;
      isReported = true;
      console.log(`${CONFORMANCE_HOST_READY} ${JSON.stringify(report)}`);
    },
  })
  .then((result) => console.error(`the command ended before this process was killed: exit ${result.exitCode}`))
  .catch((error: unknown) => console.error(`the command failed: ${String(error)}`));
setInterval(() => undefined, 60_000);
