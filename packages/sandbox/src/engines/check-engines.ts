import type Dockerode from 'dockerode';
import type { DoctorCheck } from '../doctor/run-doctor.js';
import { DEFAULT_DOCKER_IMAGE } from '../docker/container-config.js';
import { engineMessage, isNotFound } from '../docker/docker-errors.js';
import { createSandbox } from '../registry/create-sandbox.js';
import type { Sandbox } from '../contract/sandbox.js';
import type { EngineSet } from './engine-set.js';

export interface CheckEnginesOptions {
  /** Runner image to look for. Default the bundled runner image. */
  image?: string;
  onCheck?: (check: DoctorCheck) => void;
}

/**
 * `ab doctor` for an engines list: on every engine, is it reachable (and its version), is the runner
 * image there, and does a sandbox without network see no interface but `lo`. Every check is required.
 */
export async function checkEngines(engineSet: EngineSet, options: CheckEnginesOptions = {}): Promise<DoctorCheck[]> {
  const image = options.image ?? DEFAULT_DOCKER_IMAGE;
  const checks: DoctorCheck[] = [];
  const record = (check: DoctorCheck): void => {
    checks.push(check);
    options.onCheck?.(check);
  };
  for (const engine of engineSet.engines) {
    const prefix = `engine ${engine.name}`;
    const health = await engineSet.checkHealth(engine.name);
    if (!health.isUp) {
      record({ name: `${prefix}`, status: 'fail', detail: `${engine.config.host} not reachable (${health.message})`, isRequired: true });
      record({ name: `${prefix} image`, status: 'skip', detail: 'needs the engine', isRequired: true });
      record({ name: `${prefix} network isolation`, status: 'skip', detail: 'needs the engine', isRequired: true });
      continue;
    }
    record({ name: prefix, status: 'ok', detail: `${engine.config.host}: Docker ${health.version} (API ${health.apiVersion}), capacity ${engine.capacity}`, isRequired: true });
    const imageCheck = await checkImage(engine.docker, image, engine.name);
    record({ ...imageCheck, name: `${prefix} image` });
    if (imageCheck.status !== 'ok') {
      record({ name: `${prefix} network isolation`, status: 'skip', detail: 'needs the image', isRequired: true });
      continue;
    }
    record({ ...(await checkNoNetwork(engine.docker, image)), name: `${prefix} network isolation` });
  }
  return checks;
}

async function checkImage(docker: Dockerode, image: string, engineName: string): Promise<DoctorCheck> {
  try {
    const info = await docker.getImage(image).inspect();
    return { name: 'image', status: 'ok', detail: `${image} (${(info.Size / 1e6).toFixed(0)} MB)`, isRequired: true };
  } catch (error) {
    const detail = isNotFound(error) ? `${image} missing: send it with \`ab image push --engine ${engineName}\`` : engineMessage(error);
    return { name: 'image', status: 'fail', detail, isRequired: true };
  }
}

async function checkNoNetwork(docker: Dockerode, image: string): Promise<DoctorCheck> {
  let sandbox: Sandbox | undefined;
  try {
    sandbox = await createSandbox('docker', { image, labels: { 'dev.agentbench.run-id': 'doctor' } }, { backendOptions: { docker } });
    const result = await sandbox.exec('ls /sys/class/net');
    const interfaces = result.stdout.split(/\s+/).filter((name) => name !== '');
    if (result.exitCode !== 0) return { name: 'network', status: 'fail', detail: `listing interfaces failed: exit ${result.exitCode} ${result.stderr.trim().slice(0, 200)}`, isRequired: true };
    const others = interfaces.filter((name) => name !== 'lo');
    return others.length === 0
      ? { name: 'network', status: 'ok', detail: 'a sandbox without network has no interface but lo', isRequired: true }
      : { name: 'network', status: 'fail', detail: `a sandbox without network has interfaces ${others.join(', ')}`, isRequired: true };
  } catch (error) {
    return { name: 'network', status: 'fail', detail: (error as Error).message, isRequired: true };
  } finally {
    await sandbox?.dispose().catch(() => undefined);
  }
}
