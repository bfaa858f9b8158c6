import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '@agentbench/schemas';
import { EngineSet } from '@agentbench/sandbox';
import { runPlacedAttempt } from './run-placed-attempt.js';

let dir = '';
let server: Server | undefined;
let answeringSocket = '';
/** What the answering engine was asked, in order (method and path without the query). */
const answered: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'placed-'));
  answeringSocket = path.join(dir, 'engine.sock');
  // Answers the version ping like an engine: enough for health checks.
  server = createServer((request, response) => {
    answered.push(`${request.method} ${request.url?.split('?')[0]}`);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ Version: '27.0.0', ApiVersion: '1.47' }));
  });
  await new Promise<void>((resolve) => server?.listen(answeringSocket, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function outcome(failureReason: AttemptRecord['result']['failure_reason']): { record: AttemptRecord } {
  return { record: { result: { passed: failureReason === null, exit_code: failureReason === null ? 0 : 1, failure_reason: failureReason } } as AttemptRecord };
}

describe('runPlacedAttempt', () => {
  it('runs a try lost to a dead engine again on the other one, and records the engine of the try kept', async () => {
    // `dead` has the more capacity, so it is placed first.
    const engineSet = await EngineSet.open([
      { name: 'alive', host: `unix://${answeringSocket}`, capacity: 1 },
      { name: 'dead', host: `unix://${path.join(dir, 'nobody.sock')}`, capacity: 2 },
    ]);
    const tried: string[] = [];
    const retries: string[] = [];
    const result = await runPlacedAttempt({
      engineSet,
      attempt: async (placement) => {
        tried.push(placement.engine);
        return outcome(placement.engine === 'dead' ? 'SANDBOX_ERROR' : null);
      },
      beforeRetry: async ({ engine }) => {
        retries.push(engine);
      },
    });
    expect(tried).toEqual(['dead', 'alive']);
    expect(retries).toEqual(['dead']);
    expect(result.outcome.record.engine).toBe('alive');
    expect(result.lost[0]?.reason).toMatch(/^engine 'dead' stopped answering \(ENOENT/);
    expect(engineSet.engine('dead').downReason).toMatch(/ENOENT/);
    expect(engineSet.engines.map((engine) => engine.running)).toEqual([0, 0]);
  });

  it("keeps a failure on an engine that still answers: it is the task's", async () => {
    const engineSet = await EngineSet.open([{ name: 'alive', host: `unix://${answeringSocket}`, capacity: 1 }, { name: 'other', host: `unix://${answeringSocket}`, capacity: 1 }]);
    let tries = 0;
    const result = await runPlacedAttempt({
      engineSet,
      attempt: async () => {
        tries += 1;
        return outcome('TESTS_FAILED');
      },
    });
    expect(tries).toBe(1);
    expect(result.outcome.record.result.failure_reason).toBe('TESTS_FAILED');
    expect(result.lost).toEqual([]);
  });

  it('keeps a sandbox failure on a healthy engine as the task\'s, without watching the engine first', async () => {
    const engineSet = await EngineSet.open([{ name: 'alive', host: `unix://${answeringSocket}`, capacity: 1 }, { name: 'other', host: `unix://${answeringSocket}`, capacity: 1 }]);
    answered.length = 0;
    const result = await runPlacedAttempt({ engineSet, attempt: async () => outcome('SANDBOX_ERROR') });
    // A healthy engine (answers, no container of ours stopped by it) is never watched: one ping and one look
    // at its events, no second ping (watching pings again every second for the 30 s grace).
    expect(answered.filter((request) => !request.includes('/events'))).toHaveLength(1);
    expect(answered.filter((request) => request.includes('/events'))).toHaveLength(1);
    expect(result.outcome.record.result.failure_reason).toBe('SANDBOX_ERROR');
    expect(result.lost).toEqual([]);
  });

  it('watches the engine of a failure when its events API fails: one that stops answering soon after is the failure', async () => {
    const dyingSocket = path.join(dir, 'dying.sock');
    // Answers one ping, then goes away, like a dockerd that is shutting down.
    const dying = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ Version: '27.0.0', ApiVersion: '1.47' }), () => {
        dying.close();
        dying.closeAllConnections();
      });
    });
    await new Promise<void>((resolve) => dying.listen(dyingSocket, resolve));
    const engineSet = await EngineSet.open([
      { name: 'alive', host: `unix://${answeringSocket}`, capacity: 1 },
      { name: 'dying', host: `unix://${dyingSocket}`, capacity: 2 },
    ]);
    const tried: string[] = [];
    const result = await runPlacedAttempt({
      engineSet,
      dyingEngineGraceMs: 5_000,
      attempt: async (placement) => {
        tried.push(placement.engine);
        return outcome(placement.engine === 'dying' ? 'SANDBOX_ERROR' : null);
      },
    });
    expect(tried).toEqual(['dying', 'alive']);
    expect(result.outcome.record.engine).toBe('alive');
  });
});
