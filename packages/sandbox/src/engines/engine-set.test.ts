import { describe, expect, it } from 'vitest';
import { EngineSet } from './engine-set.js';

// Sockets nobody listens on: placement needs no engine; a ping finds them down.
const engines = [
  { name: 'small', host: 'unix:///nonexistent/agentbench-small.sock', capacity: 2 },
  { name: 'large', host: 'unix:///nonexistent/agentbench-large.sock', capacity: 3 },
];

describe('EngineSet placement', () => {
  it('places each attempt on the engine with the most free capacity, the list order breaking ties', async () => {
    const set = await EngineSet.open(engines);
    expect(set.totalCapacity).toBe(5);
    const placed: string[] = [];
    for (let index = 0; index < 5; index += 1) placed.push((await set.acquire()).engine.name);
    expect(placed).toEqual(['large', 'small', 'large', 'small', 'large']);
    expect(set.place()).toBeUndefined();
  });

  it('waits for a released place when every engine is full', async () => {
    const set = await EngineSet.open([{ ...engines[0]!, capacity: 1 }]);
    const first = await set.acquire();
    let isSecondPlaced = false;
    const second = set.acquire().then((lease) => {
      isSecondPlaced = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isSecondPlaced).toBe(false);
    first.release();
    first.release();
    expect((await second).engine.name).toBe('small');
    expect(set.engine('small').running).toBe(1);
  });

  it('gives a down engine no new attempts', async () => {
    const set = await EngineSet.open(engines);
    set.markDown('large', 'ECONNREFUSED');
    expect((await set.acquire()).engine.name).toBe('small');
    expect((await set.acquire()).engine.name).toBe('small');
    expect(set.place()).toBeUndefined();
  });

  it('refuses to place when no engine answers, naming each with its reason', async () => {
    const set = await EngineSet.open(engines, { pingTimeoutMs: 1000 });
    set.markDown('small', 'stopped');
    set.markDown('large', 'stopped');
    await expect(set.acquire()).rejects.toThrow(/no Docker engine of the engines list answers: small \(unix:\/\/\/nonexistent\/agentbench-small\.sock\): ENOENT/);
  });

  it('names the known engines for an unknown one', async () => {
    const set = await EngineSet.open(engines);
    expect(() => set.engine('medium')).toThrow("no engine named 'medium'; the engines are small, large");
  });
});
