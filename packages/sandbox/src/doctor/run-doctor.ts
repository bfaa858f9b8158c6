import { createServer, type Server } from 'node:net';
import type Dockerode from 'dockerode';
import { isBwrapAvailable } from '../bwrap/bwrap-availability.js';
import { DEFAULT_DOCKER_IMAGE } from '../docker/container-config.js';
import type { DockerSandbox } from '../docker/docker-sandbox.js';
import { listManagedContainers } from '../docker/managed-containers.js';
import { listManagedImages } from '../docker/managed-images.js';
import { describeLeftovers } from './describe-leftovers.js';
import type { DoctorCheck } from './doctor-check.js';
import { createSandbox } from '../registry/create-sandbox.js';
import { listSandboxBackends } from '../registry/default-registry.js';
import type { SandboxBackendInfo } from '../registry/sandbox-backend-registry.js';
import { ensureRootfs } from '../bwrap/ensure-rootfs.js';
import type { Sandbox } from '../contract/sandbox.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { checkGvisor } from './gvisor-check.js';

export type { DoctorCheck, DoctorStatus } from './doctor-check.js';

export interface DoctorReport {
  checks: DoctorCheck[];
  /** The registered sandbox backends (built-ins, then any a plugin registered in this process) and their promises. */
  backends: SandboxBackendInfo[];
  /** Every required check passed. */
  isHealthy: boolean;
}

export interface DoctorOptions {
  image?: string;
  docker?: Dockerode;
  /** Called as each check finishes, for live output. */
  onCheck?: (check: DoctorCheck) => void;
}

/**
 * Checks what the default path needs (engine, runner image, a working and network-less
 * container) and what is optional (gVisor, bubblewrap, leftovers, the local backend).
 */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const image = options.image ?? DEFAULT_DOCKER_IMAGE;
  const docker = options.docker ?? defaultEngine();
  const checks: DoctorCheck[] = [];
  const record = (check: DoctorCheck): DoctorCheck => {
    checks.push(check);
    options.onCheck?.(check);
    return check;
  };

  const backends = listSandboxBackends();
  record({ name: 'sandbox backends', status: 'ok', detail: backends.map(describeBackend).join(', '), isRequired: false });
  const engine = record(await checkEngine(docker));
  const hasImage = engine.status === 'ok' && record(await checkImage(docker, image)).status === 'ok';
  if (engine.status !== 'ok') record({ name: 'runner image', status: 'skip', detail: 'no engine', isRequired: true });
  if (hasImage) {
    for (const check of await checkDockerSandbox(docker, image)) record(check);
  } else {
    record({ name: 'docker smoke command', status: 'skip', detail: 'needs the engine and the image', isRequired: true });
    record({ name: 'docker network isolation', status: 'skip', detail: 'needs the engine and the image', isRequired: true });
  }
  if (hasImage) record(await checkGvisor(docker, image));
  else record({ name: 'gvisor runtime', status: 'skip', detail: 'needs the engine and the image', isRequired: false });
  if (engine.status === 'ok') record(await checkLeftovers(docker));
  record(await checkBwrap(hasImage ? image : undefined, docker));
  record(await checkLocal());

  const isHealthy = checks.every((check) => !check.isRequired || check.status === 'ok');
  return { checks, backends, isHealthy };
}

/** `docker (container)`, `local (no isolation)`: a name and what it keeps away from the host. */
function describeBackend(backend: SandboxBackendInfo): string {
  const isolation = backend.promises?.isolation;
  return `${backend.name} (${isolation === undefined ? 'promises nothing' : isolation === 'none' ? 'no isolation' : isolation})`;
}

async function checkEngine(docker: Dockerode): Promise<DoctorCheck> {
  try {
    const version = await docker.version();
    return { name: 'docker engine', status: 'ok', detail: `Docker ${version.Version} (API ${version.ApiVersion})`, isRequired: true };
  } catch (error) {
    return {
      name: 'docker engine',
      status: 'fail',
      detail: `not reachable (${messageOf(error)}); install docker.io and start dockerd (scripts/setup.sh does both)`,
      isRequired: true,
    };
  }
}

async function checkImage(docker: Dockerode, image: string): Promise<DoctorCheck> {
  try {
    const info = await docker.getImage(image).inspect();
    return { name: 'runner image', status: 'ok', detail: `${image} (${Math.round(info.Size / 1e6)} MB)`, isRequired: true };
  } catch {
    return { name: 'runner image', status: 'fail', detail: `${image} is missing; build it offline with \`ab image build\``, isRequired: true };
  }
}

/** A smoke command, then proof that a sandbox without network cannot reach a listener on the host. */
async function checkDockerSandbox(docker: Dockerode, image: string): Promise<DoctorCheck[]> {
  let sandbox: DockerSandbox | undefined;
  const listener = await listen();
  try {
    const started = performance.now();
    sandbox = await createSandbox('docker', { image, labels: { 'dev.agentbench.run-id': 'doctor' } }, { backendOptions: { docker } });
    const smoke = await sandbox.exec('echo agentbench-ok', { timeoutSec: 30 });
    const elapsed = Math.round(performance.now() - started);
    const smokeCheck: DoctorCheck =
      smoke.exitCode === 0 && smoke.stdout.trim() === 'agentbench-ok'
        ? { name: 'docker smoke command', status: 'ok', detail: `container up and command run in ${elapsed} ms`, isRequired: true }
        : { name: 'docker smoke command', status: 'fail', detail: `exit ${smoke.exitCode}: ${smoke.stderr.trim().slice(0, 200)}`, isRequired: true };

    // Connect first: the bridge's gateway address is only known (and its host side up) once a container joins.
    await sandbox.setNetwork(true);
    const gateway = await containerGateway(docker, sandbox.containerId);
    if (gateway === undefined) {
      return [smokeCheck, { name: 'docker network isolation', status: 'warn', detail: 'the container got no bridge gateway to probe', isRequired: true }];
    }
    const withNetwork = await probe(sandbox, gateway, listener.port);
    await sandbox.setNetwork(false);
    const withoutNetwork = await probe(sandbox, gateway, listener.port);
    let isolation: DoctorCheck;
    if (withoutNetwork) {
      isolation = { name: 'docker network isolation', status: 'fail', detail: `a sandbox without network reached ${gateway}:${listener.port}`, isRequired: true };
    } else if (!withNetwork) {
      isolation = {
        name: 'docker network isolation',
        status: 'warn',
        detail: `no egress without network, but the probe of ${gateway} also failed with network (host firewall?): inconclusive`,
        isRequired: true,
      };
    } else {
      isolation = { name: 'docker network isolation', status: 'ok', detail: `host listener on ${gateway} unreachable without network, reachable with it`, isRequired: true };
    }
    return [smokeCheck, isolation];
  } catch (error) {
    return [{ name: 'docker smoke command', status: 'fail', detail: messageOf(error), isRequired: true }];
  } finally {
    await sandbox?.dispose();
    await new Promise<void>((resolve) => listener.server.close(() => resolve()));
  }
}

async function checkLeftovers(docker: Dockerode): Promise<DoctorCheck> {
  try {
    const [containers, images] = await Promise.all([listManagedContainers({}, { docker }), listManagedImages({}, { docker })]);
    return describeLeftovers(containers, images);
  } catch (error) {
    return { name: 'leftover containers', status: 'warn', detail: messageOf(error), isRequired: false };
  }
}

async function checkBwrap(image: string | undefined, docker: Dockerode): Promise<DoctorCheck> {
  const availability = await isBwrapAvailable();
  if (!availability.isAvailable) return { name: 'bwrap backend', status: 'warn', detail: availability.reason, isRequired: false };
  if (image === undefined) return { name: 'bwrap backend', status: 'skip', detail: 'bwrap works; a rootfs needs the runner image', isRequired: false };
  let sandbox: Sandbox | undefined;
  try {
    const rootfs = await ensureRootfs({ image, docker });
    sandbox = await createSandbox('bwrap', { rootfs });
    const result = await sandbox.exec('echo agentbench-ok', { timeoutSec: 30 });
    return result.exitCode === 0
      ? { name: 'bwrap backend', status: 'ok', detail: `smoke command ran in ${Math.round(result.durationMs)} ms (rootfs ${rootfs})`, isRequired: false }
      : { name: 'bwrap backend', status: 'warn', detail: `smoke command exited ${result.exitCode}: ${result.stderr.trim().slice(0, 200)}`, isRequired: false };
  } catch (error) {
    return { name: 'bwrap backend', status: 'warn', detail: messageOf(error), isRequired: false };
  } finally {
    await sandbox?.dispose();
  }
}

async function checkLocal(): Promise<DoctorCheck> {
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await createSandbox('local', {}, { backendOptions: { isWarningSilenced: true } });
    const result = await sandbox.exec('echo agentbench-ok', { timeoutSec: 10 });
    return result.exitCode === 0
      ? { name: 'local backend', status: 'ok', detail: 'works (no isolation: explicit opt-in only)', isRequired: false }
      : { name: 'local backend', status: 'warn', detail: `exit ${result.exitCode}`, isRequired: false };
  } catch (error) {
    return { name: 'local backend', status: 'warn', detail: messageOf(error), isRequired: false };
  } finally {
    await sandbox?.dispose();
  }
}

async function containerGateway(docker: Dockerode, containerId: string): Promise<string | undefined> {
  const inspected = await docker.getContainer(containerId).inspect();
  const gateway = inspected.NetworkSettings.Networks['bridge']?.Gateway;
  return gateway === undefined || gateway === '' ? undefined : gateway;
}

function listen(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => {
      // The probe closes at once; a reset on our side of the socket is expected, not an error.
      socket.on('error', () => undefined);
      socket.end('agentbench-doctor\n');
    });
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

/** True when a TCP connection from inside the sandbox to host:port succeeds within two seconds. */
async function probe(sandbox: Sandbox, host: string, port: number): Promise<boolean> {
  const script = `import socket,sys\ntry:\n socket.create_connection((${JSON.stringify(host)}, ${port}), timeout=2).close()\nexcept OSError:\n sys.exit(1)\n`;
  const result = await sandbox.exec(['python3', '-c', script], { timeoutSec: 10 });
  return result.exitCode === 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
