import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { cpuSecondsOfCpuStat, readContainerCpuSeconds } from './container-cpu-seconds.js';

const id = 'a'.repeat(64);
const folders: string[] = [];
// An engine nobody listens on: the fallback answers nothing.
const gone = new Dockerode({ socketPath: '/nonexistent/docker.sock' });

async function cgroupRoot(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'cgroup-'));
  folders.push(root);
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
  return root;
}

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('readContainerCpuSeconds', () => {
  it('reads usage_usec of cgroup v2 cpu.stat, under the systemd driver, the cgroupfs one and a hybrid host', async () => {
    const stat = 'usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n';
    for (const relative of [`system.slice/docker-${id}.scope/cpu.stat`, `docker/${id}/cpu.stat`, `unified/docker/${id}/cpu.stat`]) {
      expect(await readContainerCpuSeconds(id, { cgroupRoot: await cgroupRoot({ [relative]: stat }), docker: gone })).toBe(2.5);
    }
  });

  it('reads cgroup v1 cpuacct.usage (nanoseconds)', async () => {
    expect(await readContainerCpuSeconds(id, { cgroupRoot: await cgroupRoot({ [`cpuacct/docker/${id}/cpuacct.usage`]: '1500000000\n' }), docker: gone })).toBe(1.5);
  });

  it('answers undefined for no cgroup and no engine, and never builds a path from an id that is not 64 hex digits', async () => {
    const root = await cgroupRoot({ 'docker/../escape/cpu.stat': 'usage_usec 1\n' });
    expect(await readContainerCpuSeconds(id, { cgroupRoot: root, docker: gone })).toBeUndefined();
    expect(await readContainerCpuSeconds('../escape', { cgroupRoot: root, docker: gone })).toBeUndefined();
    expect(cpuSecondsOfCpuStat('user_usec 5\n')).toBeUndefined();
  });
});
