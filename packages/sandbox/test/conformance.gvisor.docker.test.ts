import { describeSandboxConformance } from '../src/conformance/index.js';
import { checkGvisorRegistered } from '../src/docker/gvisor-availability.js';
import { bundledConformanceHost } from './helpers/conformance-host-script.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

// The docker backend's conformance again, every sandbox under gVisor (`runtime: 'runsc'`, registered
// without network by `scripts/setup.sh --with-gvisor`). Skipped, saying why, when runsc is not registered.
const context = await useDockerTestContext('conformance.gvisor.docker.test.ts');
const gvisor = context.skipReason === undefined ? await checkGvisorRegistered(context.docker) : undefined;
const skipReason = context.skipReason ?? gvisor?.reason;
if (context.skipReason === undefined && skipReason !== undefined) console.warn(`[skipped] conformance.gvisor.docker.test.ts: ${skipReason}`);

describeSandboxConformance({
  backend: 'docker',
  backendOptions: { docker: context.docker },
  // Labelled with this file's run id: the file ends by checking that no container is left.
  spec: { image: RUNNER_IMAGE, labels: { runId: context.runId, taskId: 'conformance-gvisor' } },
  specOverlay: { runtime: 'runsc' },
  skipReason,
  notKept: {
    // runsc is registered with --network=none: after the network is cut the sandbox lives under gVisor, which has
    // loopback only, so setNetwork(true) is refused (an error naming the runtime) instead of reconnecting.
    networkReconnects: {
      why: 'runsc runs without network (--network=none); after setNetwork(false) the sandbox lives under gVisor',
      refusal: /runs under runtime "runsc", which the engine runs without network/,
    },
    // The container's memory cgroup holds gVisor's own kernel (the Sentry) too: a memory hog gets the whole container
    // OOM-killed. Seen on this machine with runsc 2022-12 (README, "gVisor"). limits.pids is kept: each command's
    // RLIMIT_NPROC caps its processes inside gVisor (see container-config.ts).
    memoryLimitEndsOnlyTheCommand: {
      why: "gVisor's kernel counts against the container's memory limit, so reaching it gets the whole container OOM-killed",
      endedError: /under runtime "runsc" \(gVisor\) has ended/,
    },
    // On the ptrace platform (the only one without KVM) gVisor forks a host stub thread for each of its kernel's
    // threads in each address space, and keeps them: a fork bomb's churn grows them toward the container's pids
    // limit, and gVisor's kernel dies on reaching it (google/gvisor#3942). The bomb stays contained either way.
    pidsLimitEndsOnlyTheCommand: {
      why: "gVisor's own host threads grow with a fork bomb's churn and count against the container's pids limit; reaching it ends the whole sandbox",
      endedError: /under runtime "runsc" \(gVisor\) has ended: the container stopped .*limits\.pids 64/,
    },
  },
  ...(skipReason === undefined ? { hostScript: await bundledConformanceHost('docker') } : {}),
});
