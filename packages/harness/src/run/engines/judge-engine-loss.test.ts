import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineHealth } from '@agentbench/sandbox';
import type { AttemptRecord } from '@agentbench/schemas';
import { judgeEngineLoss, judgeFinishedTry, type EngineWitness } from './judge-engine-loss.js';

const up: EngineHealth = { isUp: true, version: '27.0.0', apiVersion: '1.47' };
const down: EngineHealth = { isUp: false, message: 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.2:2376' };

/** An engine set that answers pings from a script (the last answer repeats) and reports the evidence given. */
function fakeEngines(answers: EngineHealth[], evidence?: string): EngineWitness & { pings: number; evidenceAsked: Date[] } {
  const fake = {
    pings: 0,
    evidenceAsked: [] as Date[],
    checkHealth: async (name: string): Promise<EngineHealth> => {
      expect(name).toBe('second');
      const answer = answers[Math.min(fake.pings, answers.length - 1)] as EngineHealth;
      fake.pings += 1;
      return answer;
    },
    stopEvidence: async (name: string, since: Date): Promise<string | undefined> => {
      expect(name).toBe('second');
      fake.evidenceAsked.push(since);
      return evidence;
    },
  };
  return fake;
}

// The clock is faked: a wait is a timer that only moves when the test advances it, so "no wait" and
// "watched for the whole grace" are seen in the timers, not measured.
afterEach(() => {
  vi.useRealTimers();
});

describe('judgeEngineLoss', () => {
  it('costs one ping and one look at the events on a healthy engine: the failure is the try\'s own, with no wait', async () => {
    vi.useFakeTimers();
    const engines = fakeEngines([up]);
    const since = new Date(Date.now() - 5_000);
    // Settles with the clock standing still: no timer was set.
    const verdict = await judgeEngineLoss({ engines, engine: 'second', since, graceMs: 60_000 });
    expect(verdict).toEqual({ isLost: false });
    expect(vi.getTimerCount()).toBe(0);
    expect(engines.pings).toBe(1);
    expect(engines.evidenceAsked).toEqual([since]);
  });

  it('calls a try lost at once when its engine does not answer, naming the engine', async () => {
    const engines = fakeEngines([down]);
    const verdict = await judgeEngineLoss({ engines, engine: 'second', since: new Date(), graceMs: 60_000 });
    expect(verdict).toEqual({ isLost: true, reason: "engine 'second' stopped answering (ECONNREFUSED: connect ECONNREFUSED 10.0.0.2:2376)" });
    expect(engines.evidenceAsked).toEqual([]);
  });

  it('watches an engine that stopped our containers, and calls the try lost once the engine goes away', async () => {
    const engines = fakeEngines([up, up, up, down], 'container ab-1 was sent signal 15 by the engine');
    const verdict = await judgeEngineLoss({ engines, engine: 'second', since: new Date(), graceMs: 60_000, recheckMs: 5 });
    expect(verdict.isLost).toBe(true);
    expect(verdict.isLost && verdict.reason).toBe("engine 'second' stopped answering (ECONNREFUSED: connect ECONNREFUSED 10.0.0.2:2376; before that, container ab-1 was sent signal 15 by the engine)");
    expect(engines.pings).toBe(4);
  });

  it('keeps the failure as the try\'s own when the engine with evidence keeps answering through the grace', async () => {
    vi.useFakeTimers();
    const engines = fakeEngines([up], 'container ab-1 was sent signal 15 by the engine');
    let verdict: unknown;
    const judged = judgeEngineLoss({ engines, engine: 'second', since: new Date(), graceMs: 100, recheckMs: 10 }).then((value) => (verdict = value));
    // Still watching just before the grace ends: one ping, then one every 10 ms.
    await vi.advanceTimersByTimeAsync(90);
    expect(verdict).toBeUndefined();
    expect(engines.pings).toBe(10);
    await vi.advanceTimersByTimeAsync(10);
    await judged;
    expect(verdict).toEqual({ isLost: false });
    expect(engines.pings).toBe(11);
  });
});

describe('judgeFinishedTry', () => {
  const failed = { result: { passed: false, failure_reason: 'SANDBOX_ERROR' } } as unknown as AttemptRecord;
  const passed = { result: { passed: true, failure_reason: null } } as unknown as AttemptRecord;

  it('asks nothing of the engine for a try that passed or that the run aborted', async () => {
    const engines = fakeEngines([down]);
    const aborted = new AbortController();
    aborted.abort();
    expect(await judgeFinishedTry(passed, undefined, { engines, engine: 'second', since: new Date() })).toEqual({ isLost: false });
    expect(await judgeFinishedTry(failed, aborted.signal, { engines, engine: 'second', since: new Date() })).toEqual({ isLost: false });
    expect(engines.pings).toBe(0);
  });

  it('judges a failed try as judgeEngineLoss does', async () => {
    const engines = fakeEngines([down]);
    expect(await judgeFinishedTry(failed, new AbortController().signal, { engines, engine: 'second', since: new Date() })).toEqual({
      isLost: true,
      reason: "engine 'second' stopped answering (ECONNREFUSED: connect ECONNREFUSED 10.0.0.2:2376)",
    });
    expect(engines.pings).toBe(1);
  });
});
