import { afterAll, describe, expect, it } from 'vitest';
import { IsolatedScriptRunner, scriptSyntaxProblem } from './isolated-script-runner.js';

const scope = { args: ['0x1234567890abcdef', 10], input: { labels: ['bug', 'critical'], state: 'open' }, context: { user_id: '123' } };

describe('IsolatedScriptRunner', () => {
  // The limit is wall-clock time: generous enough that a trivial script on a loaded CI machine stays under it.
  const runner = new IsolatedScriptRunner({ timeoutMs: 1000 });
  afterAll(() => runner.close());

  it('evaluates a matcher over args, input and context', async () => {
    await expect(runner.run({ kind: 'matcher', source: "input.labels.includes('bug') && input.state === 'open'", scope, seed: 1, label: 'm' })).resolves.toBe(true);
    await expect(runner.run({ kind: 'matcher', source: "context.user_id === '999'", scope, seed: 1, label: 'm' })).resolves.toBe(false);
  });

  it('runs a response function written as a body or as a function', async () => {
    await expect(runner.run({ kind: 'responseFn', source: 'return { address: args[0], sum: args[1] + 1 }', scope, seed: 1, label: 'r' })).resolves.toEqual({
      address: '0x1234567890abcdef',
      sum: 11,
    });
    await expect(runner.run({ kind: 'responseFn', source: '(a, i) => ({ state: i.state, count: a.length })', scope, seed: 1, label: 'r' })).resolves.toEqual({
      state: 'open',
      count: 2,
    });
  });

  it('stops an endless loop at the time limit and keeps working afterwards', async () => {
    await expect(runner.run({ kind: 'matcher', source: '(() => { while (true) {} })()', scope, seed: 1, label: 'setup.mocks[0].when.matcher' })).rejects.toThrow(
      'setup.mocks[0].when.matcher: the script ran longer than 1000 ms and was stopped',
    );
    await expect(runner.run({ kind: 'matcher', source: 'args.length === 2', scope, seed: 1, label: 'm' })).resolves.toBe(true);
  });

  it('does not count a slow worker start against the time limit', async () => {
    const fresh = new IsolatedScriptRunner({ timeoutMs: 500 });
    try {
      const answer = fresh.run({ kind: 'matcher', source: 'args.length === 2', scope, seed: 1, label: 'm' });
      // Hold the main thread past the watchdog's 2,000 ms while the worker starts, as a loaded machine does.
      const until = Date.now() + 2500;
      while (Date.now() < until);
      await expect(answer).resolves.toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('gives the script no require, process, or code generation', async () => {
    await expect(runner.run({ kind: 'matcher', source: 'typeof require === "undefined" && typeof process === "undefined"', scope, seed: 1, label: 'm' })).resolves.toBe(true);
    await expect(runner.run({ kind: 'responseFn', source: 'return eval("1 + 1")', scope, seed: 1, label: 'r' })).rejects.toThrow(/EvalError/);
  });

  it('freezes the inputs', async () => {
    await expect(runner.run({ kind: 'responseFn', source: "input.labels.push('x'); return 1", scope, seed: 1, label: 'r' })).rejects.toThrow(/TypeError/);
  });

  it('seeds Math.random from the request', async () => {
    const draw = (seed: number) => runner.run({ kind: 'responseFn', source: 'return [Math.random(), Math.random()]', scope, seed, label: 'r' });
    expect(await draw(5)).toEqual(await draw(5));
    expect(await draw(5)).not.toEqual(await draw(6));
  });

  it('rejects asynchronous scripts', async () => {
    await expect(runner.run({ kind: 'responseFn', source: 'async () => 1', scope, seed: 1, label: 'r' })).rejects.toThrow(/must be synchronous/);
  });

  it('reports syntax errors without running anything', () => {
    expect(scriptSyntaxProblem('matcher', 'args[0] ===')).toMatch(/Unexpected/);
    expect(scriptSyntaxProblem('responseFn', 'return { ok: true }')).toBeUndefined();
  });
});
