import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEvaluationContext } from '../context/evaluation-context.js';
import { defineEvaluator } from '../evaluator.js';
import { definePlugin } from '../plugins/plugin-definition.js';
import { createEvaluatorRegistry } from '../registry/evaluator-registry.js';
import { DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS } from './guarded-evaluation.js';

const context = createEvaluationContext({ response: 'hello' });

function registryWith(evaluate: (signal: AbortSignal | undefined) => Promise<{ success: boolean; message: string }>) {
  const evaluator = defineEvaluator({
    type: 'risky',
    params: v.strictObject({}),
    evaluate: (_params, evaluationContext) => evaluate(evaluationContext.signal),
  });
  return createEvaluatorRegistry({ plugins: [definePlugin({ name: 'risky-plugin', version: '2.0.0', evaluators: [evaluator] })] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('plugin evaluations that hang or exit', () => {
  it('turns an evaluation that never settles into an error naming the evaluator and its plugin, at the entry timeout_ms', async () => {
    let signal: AbortSignal | undefined;
    const registry = registryWith((evaluationSignal) => {
      signal = evaluationSignal;
      return new Promise(() => undefined);
    });
    const report = await registry.evaluate({ type: 'risky', timeout_ms: 30 }, context);
    expect(report).toMatchObject({
      success: false,
      error: 'evaluator "risky" of plugin "risky-plugin" 2.0.0 did not finish within 30 ms (timeout_ms of the entry); it was abandoned',
    });
    // The evaluator is told to stop.
    expect(signal?.aborted).toBe(true);
  });

  it('gives a plugin evaluation 60 seconds by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const registry = registryWith(() => new Promise(() => undefined));
    const pending = registry.evaluate({ type: 'risky' }, context);
    await vi.advanceTimersByTimeAsync(DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS - 1);
    let isDone = false;
    void pending.then(() => {
      isDone = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(isDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).error).toBe(
      'evaluator "risky" of plugin "risky-plugin" 2.0.0 did not finish within 60000 ms (the default for plugin evaluators; set timeout_ms on the entry to change it); it was abandoned',
    );
  });

  it('blocks process.exit called by the evaluation, directly or from a timer, and reports it as an error', async () => {
    const direct = registryWith(async () => {
      process.exit(0);
      return { success: true, message: 'after exit' };
    });
    expect(await direct.evaluate({ type: 'risky' }, context)).toMatchObject({
      success: false,
      error: 'evaluator "risky" of plugin "risky-plugin" 2.0.0 called process.exit(0) during evaluation; the exit was blocked and the evaluation is an error',
    });
    const later = registryWith(
      () =>
        new Promise(() => {
          setTimeout(() => process.exit(3), 5);
        }),
    );
    expect((await later.evaluate({ type: 'risky', timeout_ms: 10_000 }, context)).error).toMatch(/called process\.exit\(3\) during evaluation/);
    // The guard stays installed (a plugin's timer can outlive its evaluation); calls from outside an evaluation pass through to the real exit.
    expect(process.exit.name).toBe('exitFromEvaluation');
  });

  it('keeps a negated evaluation that timed out an error, never a pass', async () => {
    const registry = registryWith(() => new Promise(() => undefined));
    const report = await registry.evaluate({ type: 'risky', negate: true, timeout_ms: 5 }, context);
    expect(report).toMatchObject({ success: false, negated: true });
  });

  it('applies timeout_ms to a built-in evaluator only when the entry sets it', async () => {
    const registry = createEvaluatorRegistry();
    const hanging = createEvaluationContext({ runCommand: () => new Promise(() => undefined) });
    const report = await registry.evaluate({ type: 'command_exit_code_is', command: 'true', timeout_ms: 20 }, hanging);
    expect(report.error).toMatch(/^evaluator "command_exit_code_is" \(built-in\) did not finish within 20 ms \(timeout_ms of the entry\)/);
  });
});
