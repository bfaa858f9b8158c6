import type { Sandbox, SandboxSnapshot, SandboxSpec } from '@agentbench/sandbox';
import { describe, expect, it } from 'vitest';
import { SandboxCpuMeter } from './sandbox-cpu-meter.js';

/** A sandbox of `backend` whose container has used `cpu[id]` seconds; disposing it removes the container (its cgroup goes). */
function fakeBackend(cpu: Map<string, number>, backend = 'docker') {
  let next = 0;
  const make = (): Sandbox => {
    const id = `container-${(next += 1)}`;
    cpu.set(id, next);
    const sandbox = {
      id,
      backend,
      workdir: '/work',
      dispose: async () => void cpu.delete(id),
      snapshot: async (): Promise<SandboxSnapshot> => ({ image: `snapshot-of-${id}`, dispose: async () => undefined, createSandbox: async () => make() }),
    };
    return sandbox as unknown as Sandbox;
  };
  return async () => make();
}

const spec = { image: 'runner' } as SandboxSpec;

describe('SandboxCpuMeter', () => {
  it("counts only its own factory's sandboxes, each once, the ones started from a snapshot included", async () => {
    const cpu = new Map<string, number>();
    const read = async (id: string): Promise<number | undefined> => cpu.get(id);
    const backend = fakeBackend(cpu);
    const first = new SandboxCpuMeter({ readCpuSeconds: read });
    const second = new SandboxCpuMeter({ readCpuSeconds: read });
    const firstFactory = first.wrap(backend);
    const secondFactory = second.wrap(backend);

    const agent = await firstFactory(spec); // 1 s
    const other = await secondFactory(spec); // 2 s, the other run's
    const snapshot = await agent.snapshot?.();
    const verdict = await snapshot?.createSandbox(spec); // 3 s, started from the first run's snapshot
    await agent.dispose();
    await agent.dispose();
    await verdict?.dispose();
    await other[Symbol.asyncDispose]();

    expect(first.cpuSeconds).toBe(4);
    expect(second.cpuSeconds).toBe(2);
    expect(first.unread).toBe(0);
    expect(cpu.size).toBe(0);
  });

  it('reads no figure for another backend, and counts a Docker container it cannot read as unread', async () => {
    const meter = new SandboxCpuMeter({ readCpuSeconds: async () => undefined });
    await (await meter.wrap(fakeBackend(new Map(), 'bwrap'))(spec)).dispose();
    expect(meter.unread).toBe(0);
    await (await meter.wrap(fakeBackend(new Map()))(spec)).dispose();
    expect(meter).toMatchObject({ cpuSeconds: 0, unread: 1 });
  });
});
