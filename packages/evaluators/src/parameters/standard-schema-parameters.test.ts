import { formatIssue, loadScenario } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { createEvaluationContext } from '../context/evaluation-context.js';
import { EvaluationParameterError } from '../errors/evaluation-parameter-error.js';
import { PluginDefinitionError } from '../errors/plugin-definition-error.js';
import { defineEvaluator } from '../evaluator.js';
import { definePlugin } from '../plugins/plugin-definition.js';
import { createEvaluatorRegistry } from '../registry/evaluator-registry.js';
import type { StandardSchemaV1 } from './standard-schema.js';

// A Standard Schema written by hand, as a library other than valibot would give one: `{ word: string,
// times?: number }`, `times` defaulting to 1. Issues name a path, as zod's and arktype's do.
interface RepeatParameters {
  word: string;
  times: number;
}

function repeatIssues(value: unknown): StandardSchemaV1.Issue[] {
  if (typeof value !== 'object' || value === null) return [{ message: 'expected an object' }];
  const record = value as Record<string, unknown>;
  const issues: StandardSchemaV1.Issue[] = [];
  if (typeof record.word !== 'string') issues.push({ message: 'expected a string', path: ['word'] });
  if (record.times !== undefined && (typeof record.times !== 'number' || record.times < 1)) issues.push({ message: 'expected a number of at least 1', path: [{ key: 'times' }] });
  for (const key of Object.keys(record)) if (key !== 'word' && key !== 'times') issues.push({ message: 'unknown parameter', path: [key] });
  return issues;
}

function repeatResult(value: unknown): StandardSchemaV1.Result<RepeatParameters> {
  const issues = repeatIssues(value);
  if (issues.length > 0) return { issues };
  const record = value as { word: string; times?: number };
  return { value: { word: record.word, times: record.times ?? 1 } };
}

function repeatSchema(isAsync: boolean): StandardSchemaV1<unknown, RepeatParameters> {
  return {
    '~standard': {
      version: 1,
      vendor: 'hand-written',
      validate: (value) => (isAsync ? Promise.resolve(repeatResult(value)) : repeatResult(value)),
    },
  };
}

function repeatEvaluator(type: string, isAsync: boolean) {
  return defineEvaluator({
    type,
    params: repeatSchema(isAsync),
    async evaluate(params, context) {
      // `params` is the schema's output: typed, with the default applied.
      const expected = Array<string>(params.times).fill(params.word).join(' ');
      return { success: context.response === expected, message: `expected "${expected}"` };
    },
  });
}

const plugin = definePlugin({ name: 'standard', version: '1.0.0', evaluators: [repeatEvaluator('repeat_word', false), repeatEvaluator('repeat_word_async', true)] });

const directory = useTemporaryDirectory();

describe('evaluator parameters as any Standard Schema', () => {
  it('passes the schema output to evaluate (defaults applied), sync or async', async () => {
    const registry = createEvaluatorRegistry({ plugins: [plugin] });
    const context = createEvaluationContext({ response: 'hi hi' });
    expect(await registry.evaluate({ type: 'repeat_word', word: 'hi', times: 2 }, context)).toMatchObject({ success: true });
    expect(await registry.evaluate({ type: 'repeat_word_async', word: 'hi', times: 2 }, context)).toMatchObject({ success: true });
    expect(await registry.evaluate({ type: 'repeat_word', word: 'hi' }, createEvaluationContext({ response: 'hi' }))).toMatchObject({ success: true });
  });

  it('reports its issues before the run with the field path and its message', () => {
    const issues = createEvaluatorRegistry({ plugins: [plugin] }).validate([{ type: 'repeat_word', word: 3, times: 0, weight: 2, extra: true }], { path: 'run[0].evaluations' });
    expect(issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      'run[0].evaluations[0].word: expected a string',
      'run[0].evaluations[0].times: expected a number of at least 1',
      'run[0].evaluations[0].extra: unknown parameter',
    ]);
  });

  it('throws EvaluationParameterError with file, line and column for a scenario', async () => {
    const file = await directory.write(
      'standard.scenario.yaml',
      ['name: Standard', 'description: d', 'environment:', '  type: local', 'run:', '  - input: hi', '    evaluations:', '      - type: repeat_word', '        word: 3', 'judgment:', '  strategy: all_pass', ''].join('\n'),
    );
    const loaded = await loadScenario(file);
    let caught: unknown;
    try {
      createEvaluatorRegistry({ plugins: [plugin] }).assertValidScenario(loaded);
    } catch (error) {
      caught = error;
    }
    expect(EvaluationParameterError.isInstance(caught)).toBe(true);
    expect((caught as EvaluationParameterError).issues.map(formatIssue)).toEqual([`${file}:9:15: run[0].evaluations[0].word: expected a string`]);
  });

  it('checks an asynchronous schema when the entry runs: invalid parameters are an error, never a pass', async () => {
    const registry = createEvaluatorRegistry({ plugins: [plugin] });
    expect(registry.validate([{ type: 'repeat_word_async', word: 3 }])).toEqual([]);
    const report = await registry.evaluate({ type: 'repeat_word_async', word: 3, negate: true }, createEvaluationContext({ response: '' }));
    expect(report).toMatchObject({ success: false, error: 'invalid parameters: word: expected a string' });
  });

  it('turns a schema that throws into an issue', async () => {
    const throwing = defineEvaluator({
      type: 'throwing_schema',
      params: {
        '~standard': {
          version: 1,
          vendor: 'hand-written',
          validate: () => {
            throw new Error('schema bug');
          },
        },
      },
      async evaluate() {
        return { success: true, message: 'never' };
      },
    });
    const registry = createEvaluatorRegistry({ plugins: [definePlugin({ name: 'throwing', version: '1.0.0', evaluators: [throwing] })] });
    expect(registry.validate([{ type: 'throwing_schema' }]).map((issue) => issue.message)).toEqual(['the parameter schema failed: schema bug']);
    expect(await registry.evaluate({ type: 'throwing_schema' }, createEvaluationContext({}))).toMatchObject({ success: false, error: 'invalid parameters: the parameter schema failed: schema bug' });
  });

  it('still accepts a valibot-shaped object without ~standard (plugins written by hand before)', async () => {
    const anything = { kind: 'schema', type: 'unknown', expects: 'unknown', async: false, '~run': (dataset: { value: unknown }) => ({ ...dataset, typed: true }) };
    const legacy = defineEvaluator({ type: 'legacy_schema', params: anything as never, evaluate: async () => ({ success: true, message: 'ran' }) });
    const registry = createEvaluatorRegistry({ plugins: [definePlugin({ name: 'legacy', version: '1.0.0', evaluators: [legacy] })] });
    expect(registry.validate([{ type: 'legacy_schema', any: 1 }])).toEqual([]);
    expect(await registry.evaluate({ type: 'legacy_schema' }, createEvaluationContext({}))).toMatchObject({ success: true, message: 'ran' });
  });

  it('refuses params that are not a Standard Schema, naming what it expected', () => {
    const definition = { type: 'no_schema', params: { parse: () => ({}) }, evaluate: async () => ({ success: true, message: '' }) };
    expect(() => defineEvaluator(definition as never)).toThrow(PluginDefinitionError);
    expect(() => defineEvaluator(definition as never)).toThrow(
      'defineEvaluator: no_schema: params: expected a Standard Schema (a valibot schema such as v.strictObject({...}), a zod or arktype schema, or an object with `~standard.validate`), found object',
    );
  });
});
