import { describe, expect, it } from 'vitest';
import { SandboxError } from '../contract/sandbox-error.js';
import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import type { IdleCapacity } from './idle-capacity.js';
import { poolKeyOf, type PoolKey } from './pool-key.js';
import { SandboxPool } from './sandbox-pool.js';
import type { PoolKeyDecision, WarmSandboxSource } from './warm-sandbox-source.js';

interface FakeWarm {
  serial: number;
  keyId: string;
  labels: Record<string, string>;
  isClaimed: boolean;
  isDisposed: boolean;
}

type FakeSandbox = Sandbox & { warm?: FakeWarm; spec: SandboxSpec; isCold: boolean };

/** A backend in memory: records every start, claim, cold create and removal; starts settle when the test says so. */
class FakeSource implements WarmSandboxSource<FakeWarm, FakeSandbox> {
  readonly description = 'the fake engine';
  readonly started: FakeWarm[] = [];
  readonly colds: FakeSandbox[] = [];
  private pendingStarts: Array<() => void> = [];
  isManualStart = false;
  startFailure: Error | undefined;
  memoryMb = 100;

  async keyOf(spec: SandboxSpec): Promise<PoolKeyDecision> {
    if (spec.mountWorkspace !== undefined) return { isPoolable: false, reason: 'mounted workspaces are not served warm here' };
    return { isPoolable: true, key: poolKeyOf(spec) };
  }

  memoryBytes(): number {
    return this.memoryMb * 1024 * 1024;
  }

  async startWarm(key: PoolKey, labels: Record<string, string>): Promise<FakeWarm> {
    if (this.isManualStart) await new Promise<void>((resolve) => this.pendingStarts.push(resolve));
    if (this.startFailure !== undefined) throw this.startFailure;
    const warm: FakeWarm = { serial: this.started.length + 1, keyId: key.id, labels, isClaimed: false, isDisposed: false };
    this.started.push(warm);
    return warm;
  }

  async claim(warm: FakeWarm, spec: SandboxSpec): Promise<FakeSandbox> {
    if (warm.isClaimed) throw new Error(`warm sandbox ${warm.serial} handed out twice`);
    if (warm.isDisposed) throw new Error(`warm sandbox ${warm.serial} was removed`);
    warm.isClaimed = true;
    return this.sandbox(spec, warm);
  }

  async createCold(spec: SandboxSpec): Promise<FakeSandbox> {
    const sandbox = this.sandbox(spec, undefined);
    this.colds.push(sandbox);
    return sandbox;
  }

  async disposeWarm(warm: FakeWarm): Promise<void> {
    warm.isDisposed = true;
  }

  /** Lets the starts under way finish. */
  releaseStarts(): void {
    for (const release of this.pendingStarts.splice(0)) release();
  }

  /** Ids of the handed-out sandboxes whose own dispose() ran, in order. */
  readonly removedTaken: string[] = [];

  private sandbox(spec: SandboxSpec, warm: FakeWarm | undefined): FakeSandbox {
    const id = `fake-${warm?.serial ?? `cold-${this.colds.length + 1}`}`;
    const removedTaken = this.removedTaken;
    return {
      id,
      warm,
      spec,
      isCold: warm === undefined,
      async dispose() {
        removedTaken.push(id);
      },
    } as unknown as FakeSandbox;
  }
}

const image = 'agentbench/py-runner:0.1.0';

async function settled(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('SandboxPool', () => {
  it('hands out a warm sandbox with the spec applied, and refills behind it', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 2, labels: { runId: 'run-1' }, id: 'pool-a' });
    await pool.warm({ image });
    expect(source.started).toHaveLength(2);
    expect(source.started[0]?.labels).toEqual({ runId: 'run-1', pool: 'pool-a', role: 'pool-sandbox' });
    const taken = await pool.take({ image, env: { ANSWER: '42' }, files: { 'a.txt': 'a' } });
    expect(taken.isCold).toBe(false);
    expect(taken.spec.env).toEqual({ ANSWER: '42' });
    await settled();
    expect(source.started).toHaveLength(3);
    expect(await pool.readyCount({ image })).toBe(2);
    await pool.dispose();
  });

  it('never hands the same sandbox out twice, over many takes', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 3 });
    await pool.warm({ image });
    const serials: number[] = [];
    for (let take = 0; take < 12; take += 1) {
      const sandbox = await pool.take({ image, files: { 'n.txt': String(take) } });
      if (sandbox.warm !== undefined) serials.push(sandbox.warm.serial);
      await settled();
    }
    expect(serials.length).toBeGreaterThan(6);
    expect(new Set(serials).size).toBe(serials.length);
    await pool.dispose();
  });

  it('keeps at most `size` warm sandboxes over all keys', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 3 });
    await pool.warm({ image });
    await pool.warm({ image, limits: { memoryMb: 512 } });
    await pool.warm({ image, hasNetwork: true });
    expect(source.started).toHaveLength(3);
    expect(await pool.readyCount()).toBe(3);
    expect(await pool.readyCount({ image, limits: { memoryMb: 512 } })).toBe(0);
    await pool.dispose();
  });

  it('stops refilling at maxMemoryBytes and says so', async () => {
    const source = new FakeSource();
    const notes: string[] = [];
    const pool = new SandboxPool(source, { size: 5, maxMemoryBytes: 250 * 1024 * 1024, onDebug: (note) => notes.push(note) });
    await pool.warm({ image });
    expect(source.started).toHaveLength(2);
    expect(pool.heldMemoryBytes).toBe(200 * 1024 * 1024);
    expect(notes.some((note) => /would pass maxMemoryBytes 262144000/.test(note))).toBe(true);
    await pool.dispose();
  });

  it('serves a take cold, without waiting, when nothing is warm, and refills', async () => {
    const source = new FakeSource();
    source.isManualStart = true;
    const notes: string[] = [];
    const pool = new SandboxPool(source, { size: 1, onDebug: (note) => notes.push(note) });
    const sandbox = await pool.take({ image, env: { A: '1' } });
    expect(sandbox.isCold).toBe(true);
    expect(sandbox.spec.env).toEqual({ A: '1' });
    expect(notes.join('\n')).toMatch(/no warm sandbox ready for image agentbench\/py-runner:0\.1\.0, without network; creating one cold/);
    source.releaseStarts();
    await settled();
    expect(await pool.readyCount({ image })).toBe(1);
    expect((await pool.take({ image })).isCold).toBe(false);
    source.releaseStarts();
    await pool.dispose();
  });

  it('waits for a warm start under way instead of creating a second sandbox cold beside it', async () => {
    const source = new FakeSource();
    source.isManualStart = true;
    const pool = new SandboxPool(source, { size: 1 });
    expect((await pool.take({ image })).isCold).toBe(true);
    await settled();
    // The refill's start is under way: the next take waits for it, and only one take may.
    const waiting = pool.take({ image, env: { B: '2' } });
    const third = pool.take({ image });
    expect((await third).isCold).toBe(true);
    source.releaseStarts();
    const taken = await waiting;
    expect(taken.isCold).toBe(false);
    expect(taken.spec.env).toEqual({ B: '2' });
    expect(source.colds).toHaveLength(2);
    expect(pool.stats()).toMatchObject({ warmTakes: 1, coldTakes: 2 });
    source.releaseStarts();
    await pool.dispose();
  });

  it('with refillAfter release, refills when a taken sandbox is disposed, not when it is taken', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 1, refillAfter: 'release' });
    await pool.warm({ image });
    const warm = await pool.take({ image });
    await settled();
    // Taken: its attempt sets up now; nothing starts beside it.
    expect(source.started).toHaveLength(1);
    await warm.dispose();
    await warm.dispose();
    await settled();
    expect(source.removedTaken).toEqual(['fake-1', 'fake-1']);
    // Released once: one refill, which the next take gets warm.
    expect(source.started).toHaveLength(2);
    const next = await pool.take({ image });
    expect(next.warm?.serial).toBe(2);
    // A cold take is refilled on its release too.
    const cold = await pool.take({ image });
    expect(cold.isCold).toBe(true);
    await settled();
    expect(source.started).toHaveLength(2);
    await cold.dispose();
    await settled();
    expect(source.started).toHaveLength(3);
    await pool.dispose();
  });

  it('warms no more than the takes still to come (expectTakes), and removes warm sandboxes beyond them', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 2 });
    pool.expectTakes(3);
    expect((await pool.take({ image })).isCold).toBe(true);
    await settled();
    expect(source.started).toHaveLength(2);
    expect((await pool.take({ image })).isCold).toBe(false);
    await settled();
    // One take left and one warm sandbox for it: no start after it.
    expect(source.started).toHaveLength(2);
    expect((await pool.take({ image })).isCold).toBe(false);
    await settled();
    expect(source.started).toHaveLength(2);
    expect(await pool.readyCount()).toBe(0);
    // Told that fewer takes are to come than are warm: the surplus goes at once.
    pool.expectTakes(undefined);
    await pool.warm({ image });
    expect(await pool.readyCount()).toBe(2);
    pool.expectTakes(1);
    expect(await pool.readyCount()).toBe(1);
    await settled();
    expect(source.started.filter((warm) => warm.isDisposed)).toHaveLength(1);
    expect(() => pool.expectTakes(-1)).toThrow('SandboxPool.expectTakes: expected a whole number ≥ 0, found -1');
    await pool.dispose();
  });

  it('serves a different key cold and a spec it cannot key cold, with the reason, and counts warm and cold takes', async () => {
    const source = new FakeSource();
    const notes: string[] = [];
    const pool = new SandboxPool(source, { size: 1, onDebug: (note) => notes.push(note) });
    await pool.warm({ image });
    expect((await pool.take({ image, limits: { cpus: 1 } })).isCold).toBe(true);
    expect((await pool.take({ image, mountWorkspace: '/tmp/x' })).isCold).toBe(true);
    expect(notes.join('\n')).toMatch(/mounted workspaces are not served warm here; creating the sandbox cold/);
    expect(await pool.readyCount({ image })).toBe(1);
    expect((await pool.take({ image })).isCold).toBe(false);
    const stats = pool.stats();
    expect({ warmTakes: stats.warmTakes, coldTakes: stats.coldTakes }).toEqual({ warmTakes: 1, coldTakes: 2 });
    expect(stats.recentTakeMs).toHaveLength(3);
    expect(stats.recentTakeMs.every((ms) => ms >= 0)).toBe(true);
    await pool.dispose();
  });

  it('keys on what cannot change after a start, not on env, files or labels', () => {
    const base = poolKeyOf({ image, limits: { memoryMb: 512, cpus: 1 }, hasNetwork: false });
    expect(poolKeyOf({ hasNetwork: false, limits: { cpus: 1, memoryMb: 512 }, image, env: { A: '1' }, files: { a: 'b' }, labels: { runId: 'r' }, logDir: '/tmp/l' }).id).toBe(base.id);
    expect(poolKeyOf({ image, limits: { memoryMb: 1024, cpus: 1 }, hasNetwork: false }).id).not.toBe(base.id);
    expect(poolKeyOf({ image, limits: { memoryMb: 512, cpus: 1 }, hasNetwork: true }).id).not.toBe(base.id);
    // A field added to the spec later (a runtime) is part of the key without changes here.
    expect(poolKeyOf({ image, limits: { memoryMb: 512, cpus: 1 }, hasNetwork: false, runtime: 'runsc' } as SandboxSpec).id).not.toBe(base.id);
  });

  it('throws a refill failure on the next take, as a SandboxError of the same kind naming the engine, then tries again', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 1, id: 'pool-b' });
    source.startFailure = new SandboxError('engine_unavailable', 'cannot reach the Docker engine at /var/run/docker.sock (ECONNREFUSED): start dockerd');
    await expect(pool.warm({ image })).rejects.toThrow(/could not start a warm sandbox/);
    await pool.take({ image });
    await settled();
    const error = await pool.take({ image }).catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error) && error.kind).toBe('engine_unavailable');
    expect((error as Error).message).toBe(
      'sandbox pool pool-b could not start a warm sandbox on the fake engine: cannot reach the Docker engine at /var/run/docker.sock (ECONNREFUSED): start dockerd',
    );
    source.startFailure = undefined;
    expect((await pool.take({ image })).isCold).toBe(true);
    await settled();
    expect(await pool.readyCount({ image })).toBe(1);
    await pool.dispose();
  });

  it('removes every warm sandbox on dispose, those still starting too, and refuses takes after', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 2 });
    await pool.warm({ image });
    source.isManualStart = true;
    await pool.take({ image });
    expect(source.started).toHaveLength(2);
    const disposal = pool.dispose();
    source.releaseStarts();
    await disposal;
    expect(source.started).toHaveLength(3);
    expect(source.started.filter((warm) => !warm.isClaimed).every((warm) => warm.isDisposed)).toBe(true);
    expect(source.started.filter((warm) => warm.isClaimed).every((warm) => !warm.isDisposed)).toBe(true);
    await expect(pool.take({ image })).rejects.toThrow(/was disposed/);
  });

  it('removes a warm sandbox whose hand-out failed, and refuses bad bounds', async () => {
    const source = new FakeSource();
    const pool = new SandboxPool(source, { size: 1 });
    await pool.warm({ image });
    const warm = source.started[0] as FakeWarm;
    warm.isClaimed = true;
    await expect(pool.take({ image })).rejects.toThrow(/handed out twice/);
    expect(warm.isDisposed).toBe(true);
    await pool.dispose();
    expect(() => new SandboxPool(source, { size: -1 })).toThrow('SandboxPoolOptions.size: expected a whole number ≥ 0, found -1');
    expect(() => new SandboxPool(source, { maxMemoryBytes: Number.NaN })).toThrow(/maxMemoryBytes: expected a number of bytes ≥ 0/);
  });

  describe('warming only with idle capacity', () => {
    /** A host whose business the test sets. */
    class SwitchableHost implements IdleCapacity {
      busy: string | undefined = 'run queue 3 on 2 cores';
      looks = 0;
      whyBusy(): string | undefined {
        this.looks += 1;
        return this.busy;
      }
    }

    async function until(condition: () => boolean): Promise<void> {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
    }

    it('holds background starts while the host is busy, says why, and warms once it is idle', async () => {
      const source = new FakeSource();
      const host = new SwitchableHost();
      const notes: string[] = [];
      const pool = new SandboxPool(source, { size: 2, idleCapacity: host, recheckMs: 1, onDebug: (note) => notes.push(note) });
      expect((await pool.take({ image })).isCold).toBe(true);
      await until(() => host.looks >= 3);
      expect(source.started).toHaveLength(0);
      expect(pool.stats().heldStarts).toBeGreaterThanOrEqual(3);
      expect(notes).toContain(`sandbox pool ${pool.id}: not warming now: run queue 3 on 2 cores`);
      host.busy = undefined;
      await until(() => source.started.length === 2);
      await settled();
      expect(await pool.readyCount({ image })).toBe(2);
      expect((await pool.take({ image })).isCold).toBe(false);
      await pool.dispose();
    });

    it('warms ahead for the first takes before they come, even on a busy host, and asks the host again for the refills behind them', async () => {
      const source = new FakeSource();
      source.isManualStart = true;
      const host = new SwitchableHost();
      const pool = new SandboxPool(source, { size: 2, idleCapacity: host, recheckMs: 1 });
      pool.expectTakes(3);
      await pool.warmAhead([{ image }, { image, limits: { cpus: 1 } }, { image }]);
      // Started before any take, one per spec, bounded by the size; the host was not asked.
      expect(source.started).toHaveLength(0);
      expect(host.looks).toBe(0);
      const first = pool.take({ image, env: { A: '1' } });
      const second = pool.take({ image, limits: { cpus: 1 } });
      source.releaseStarts();
      // The takes waited for the starts under way instead of creating cold.
      expect((await first).isCold).toBe(false);
      expect((await second).isCold).toBe(false);
      expect(source.started.map((warm) => warm.keyId)).toEqual([poolKeyOf({ image }).id, poolKeyOf({ image, limits: { cpus: 1 } }).id]);
      expect(source.colds).toHaveLength(0);
      // The refills for the take left ask the host, which is busy: nothing more starts until it is idle.
      await until(() => host.looks >= 3);
      expect(source.started).toHaveLength(2);
      source.isManualStart = false;
      host.busy = undefined;
      await until(() => source.started.length === 3);
      await settled();
      expect((await pool.take({ image })).isCold).toBe(false);
      expect(source.started).toHaveLength(3);
      await pool.dispose();
    });

    it('warms ahead no further than the takes to come, and skips a spec it cannot serve warm', async () => {
      const source = new FakeSource();
      const notes: string[] = [];
      const pool = new SandboxPool(source, { size: 4, onDebug: (note) => notes.push(note) });
      pool.expectTakes(1);
      await pool.warmAhead([{ image, mountWorkspace: '/nowhere' }, { image }, { image }]);
      await settled();
      expect(source.started).toHaveLength(1);
      expect(notes).toContain(`sandbox pool ${pool.id}: not warming ahead: mounted workspaces are not served warm here`);
      await pool.dispose();
      await expect(pool.warmAhead([{ image }])).rejects.toThrow(/was disposed/);
    });

    it('warms on an explicit warm() even on a busy host', async () => {
      const source = new FakeSource();
      const pool = new SandboxPool(source, { size: 2, idleCapacity: new SwitchableHost(), recheckMs: 1 });
      await pool.warm({ image });
      expect(await pool.readyCount({ image })).toBe(2);
      await pool.dispose();
    });

    it('follows setSize: a smaller size removes the surplus, a larger one refills the keys seen', async () => {
      const source = new FakeSource();
      const pool = new SandboxPool(source, { size: 3 });
      await pool.warm({ image });
      expect(source.started).toHaveLength(3);
      pool.setSize(1);
      expect(pool.maxSize).toBe(1);
      expect(await pool.readyCount()).toBe(1);
      await settled();
      expect(source.started.filter((warm) => warm.isDisposed)).toHaveLength(2);
      pool.setSize(2);
      await settled();
      expect(source.started).toHaveLength(4);
      expect(await pool.readyCount({ image })).toBe(2);
      expect(() => pool.setSize(1.5)).toThrow('SandboxPool.setSize: expected a whole number ≥ 0, found 1.5');
      await pool.dispose();
      expect(source.started.every((warm) => warm.isDisposed)).toBe(true);
    });
  });
});
