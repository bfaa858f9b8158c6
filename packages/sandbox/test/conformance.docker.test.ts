import { describeSandboxConformance } from '../src/conformance/index.js';
import { bundledConformanceHost } from './helpers/conformance-host-script.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('conformance.docker.test.ts');

describeSandboxConformance({
  backend: 'docker',
  backendOptions: { docker: context.docker },
  // Labelled with this file's run id: the file ends by checking that no container is left.
  spec: { image: RUNNER_IMAGE, labels: { runId: context.runId, taskId: 'conformance' } },
  skipReason: context.skipReason,
  ...(context.skipReason === undefined ? { hostScript: await bundledConformanceHost('docker') } : {}),
});
