import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Dockerode from 'dockerode';
import { defaultEngine } from '../core/engine/default-engine.js';

/** Where the host mounts its cgroups. */
const CGROUP_ROOT = '/sys/fs/cgroup';

/** A container id as the engine gives it: 64 hex digits (anything else never reaches a path). */
const CONTAINER_ID = /^[0-9a-f]{64}$/;

export interface ContainerCpuOptions {
  /** Engine asked when no cgroup file of the container is readable here (a remote engine). Default: the shared local one. */
  docker?: Dockerode;
  /** Where the cgroup hierarchy is mounted. Default /sys/fs/cgroup. */
  cgroupRoot?: string;
  /** Ask the engine when no cgroup file is readable. Default true; false for a caller that must not wait on the engine. */
  isEngineAsked?: boolean;
}

/**
 * The cgroup files that can hold a Docker container's CPU time, most likely first: cgroup v2's
 * `cpu.stat` under the systemd and the cgroupfs drivers (and under `unified/` on a hybrid host),
 * then cgroup v1's `cpuacct.usage`.
 */
export function containerCpuFiles(containerId: string, cgroupRoot = CGROUP_ROOT): Array<{ file: string; version: 1 | 2 }> {
  const scope = `docker-${containerId}.scope`;
  const version2 = ['', 'unified'].flatMap((base) => [path.join(cgroupRoot, base, 'system.slice', scope, 'cpu.stat'), path.join(cgroupRoot, base, 'docker', containerId, 'cpu.stat')]);
  const version1 = ['cpuacct', 'cpu,cpuacct'].flatMap((controller) => [path.join(cgroupRoot, controller, 'docker', containerId, 'cpuacct.usage'), path.join(cgroupRoot, controller, 'system.slice', scope, 'cpuacct.usage')]);
  return [...version2.map((file) => ({ file, version: 2 as const })), ...version1.map((file) => ({ file, version: 1 as const }))];
}

/** CPU seconds of a cgroup v2 `cpu.stat` (its `usage_usec`), or undefined when the line is missing. */
export function cpuSecondsOfCpuStat(text: string): number | undefined {
  const match = /^usage_usec (\d+)$/m.exec(text);
  return match === null ? undefined : Number(match[1]) / 1e6;
}

/**
 * The CPU seconds a container's processes used so far (user + system, every process of it), read
 * from its cgroup: the host's cgroup files when this process sees them (cgroup v2 `cpu.stat`
 * usage_usec, or v1 `cpuacct.usage`), else the engine's stats of the same cgroup (one-shot).
 * Read it before the container is removed: its cgroup goes with it. Undefined when neither answers.
 * The kernel writes these files, not the sandbox, so a sandbox cannot forge its own figure.
 */
export async function readContainerCpuSeconds(containerId: string, options: ContainerCpuOptions = {}): Promise<number | undefined> {
  if (!CONTAINER_ID.test(containerId)) return undefined;
  for (const { file, version } of containerCpuFiles(containerId, options.cgroupRoot)) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const seconds = version === 2 ? cpuSecondsOfCpuStat(text) : Number(text.trim()) / 1e9;
    if (seconds !== undefined && Number.isFinite(seconds)) return seconds;
  }
  if (options.isEngineAsked === false) return undefined;
  try {
    const stats = (await (options.docker ?? defaultEngine()).getContainer(containerId).stats({ stream: false, 'one-shot': true } as { stream: false })) as { cpu_stats?: { cpu_usage?: { total_usage?: number } } };
    const nanoseconds = stats.cpu_stats?.cpu_usage?.total_usage;
    return typeof nanoseconds === 'number' && nanoseconds > 0 ? nanoseconds / 1e9 : undefined;
  } catch {
    return undefined;
  }
}
