import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createEvaluationContext } from '../context/evaluation-context.js';
import { defineEvaluator } from '../evaluator.js';
import { definePlugin } from '../plugins/plugin-definition.js';
import { capDetails, capText, MAX_EVALUATION_DETAILS_CHARACTERS, MAX_EVALUATION_MESSAGE_CHARACTERS } from './bounded-report.js';
import { createEvaluatorRegistry } from '../registry/evaluator-registry.js';

describe('capText', () => {
  it('keeps a short message and cuts a long one with the cut marked', () => {
    expect(capText('fine')).toBe('fine');
    const cut = capText('m'.repeat(50 * 1024 * 1024));
    expect(cut).toBe(`${'m'.repeat(MAX_EVALUATION_MESSAGE_CHARACTERS)}… [cut: 52,424,800 more characters]`);
  });

  it('never splits a surrogate pair', () => {
    const cut = capText(`${'a'.repeat(3)}😀${'b'.repeat(10)}`, 4);
    expect(cut).toBe('aaa… [cut: 12 more characters]');
  });
});

describe('capDetails', () => {
  it('keeps small details as they are', () => {
    const details = { usage: { total_tokens: 12 }, questions: [{ votes: [{ model: 'm' }] }] };
    expect(capDetails(details)).toBe(details);
    expect(capDetails(undefined)).toBeUndefined();
  });

  it('cuts long strings and lists with markers, keeping numbers', () => {
    const details = { usage: { total_tokens: 7 }, log: 'x'.repeat(200_000), items: Array.from({ length: 5000 }, (_, index) => index) };
    const capped = capDetails(details) as { usage: unknown; log: string; items: unknown[] };
    expect(capped.usage).toEqual({ total_tokens: 7 });
    expect(capped.log).toBe(`${'x'.repeat(1000)}… [cut: 199,000 more characters]`);
    expect(capped.items).toHaveLength(101);
    expect(capped.items.at(-1)).toBe('… [cut: 4,900 more items]');
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(MAX_EVALUATION_DETAILS_CHARACTERS);
  });

  it('marks a cycle and stores a preview when cutting is not enough', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    expect(capDetails(cyclic)).toEqual({ name: 'loop', self: '[circular]' });
    const wide = Object.fromEntries(Array.from({ length: 99 }, (_, index) => [`k${index}`, 'y'.repeat(1000)]));
    const capped = capDetails(wide) as { cut: string; preview: string };
    expect(capped.cut).toMatch(/^the details were over 65,536 characters of JSON even with long values cut; the first 4,000 follow$/);
    expect(capped.preview).toHaveLength(4000);
  });
});

describe('reports of a plugin that returns too much', () => {
  it('caps a 50 MB message and huge details before they reach a record', async () => {
    const flood = defineEvaluator({
      type: 'flood',
      params: v.strictObject({}),
      evaluate: async () => ({ success: false, message: 'z'.repeat(50 * 1024 * 1024), details: { dump: 'd'.repeat(10 * 1024 * 1024) } }),
    });
    const registry = createEvaluatorRegistry({ plugins: [definePlugin({ name: 'flood-plugin', version: '1.0.0', evaluators: [flood] })] });
    const report = await registry.evaluate({ type: 'flood' }, createEvaluationContext());
    expect(report.success).toBe(false);
    expect(report.message.length).toBeLessThan(MAX_EVALUATION_MESSAGE_CHARACTERS + 100);
    expect(report.message).toMatch(/… \[cut: 52,424,800 more characters\]$/);
    expect(JSON.stringify(report).length).toBeLessThan(MAX_EVALUATION_MESSAGE_CHARACTERS + MAX_EVALUATION_DETAILS_CHARACTERS);
  });
});
