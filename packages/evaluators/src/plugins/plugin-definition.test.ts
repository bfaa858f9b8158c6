import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { conversationOf } from '../../test/helpers/conversation.js';
import { PluginDefinitionError } from '../errors/plugin-definition-error.js';
import { defineEvaluator } from '../evaluator.js';
import { definePlugin, isDefinedPlugin } from './plugin-definition.js';
import { buildPluginSet, inlinePlugin } from './plugin-set.js';

const echo = defineEvaluator({ type: 'echo_check', params: v.strictObject({}), evaluate: async () => ({ success: true, message: 'ok' }) });

describe('definePlugin', () => {
  it('marks a valid definition and keeps every contribution', () => {
    const plugin = definePlugin({
      name: 'full',
      version: '1.0.0',
      evaluators: [echo],
      environmentProviders: [{ type: 'sandbox-x', create: () => ({}) }],
      terminationConditions: [{ name: 'said_goodbye', check: (conversation) => conversation.turns.some((turn) => turn.userInput.includes('bye')) }],
      services: [{ name: 'github-service', create: () => ({}) }],
    });
    expect(isDefinedPlugin(plugin)).toBe(true);
    const set = buildPluginSet([inlinePlugin(plugin)]);
    expect([...set.environmentProviders.keys(), ...set.terminationConditions.keys(), ...set.services.keys()]).toEqual(['sandbox-x', 'said_goodbye', 'github-service']);
    expect(set.terminationConditions.get('said_goodbye')?.item.check(conversationOf([['bye', 'ok']]), {})).toBe(true);
  });

  it('throws on a malformed definition, naming each field', () => {
    expect(() => definePlugin({ name: 'bad', version: '1.0', evaluators: [{ type: 'x' } as never], services: [{ name: 's' } as never] })).toThrow(
      new PluginDefinitionError(
        'definePlugin "bad": version: expected a semantic version like "1.0.0", found "1.0"; evaluators: [0]: x: params: expected a Standard Schema (a valibot schema such as v.strictObject({...}), a zod or arktype schema, or an object with `~standard.validate`), found nothing; services: [0] (s).create: expected a function',
      ),
    );
  });

  it('defineEvaluator refuses a bad type name', () => {
    expect(() => defineEvaluator({ type: 'Word Count', params: v.strictObject({}), evaluate: async () => ({ success: true, message: '' }) })).toThrow(
      'defineEvaluator: type: expected a lower-case name such as "word_count" (letters, digits, "_"), found "Word Count"',
    );
  });

  it('refuses two plugins offering the same provider, condition or service', () => {
    const first = definePlugin({ name: 'one', version: '1.0.0', services: [{ name: 'db', create: () => ({}) }], environmentProviders: [{ type: 'e2b', create: () => ({}) }] });
    const second = definePlugin({ name: 'two', version: '2.0.0', services: [{ name: 'db', create: () => ({}) }] });
    expect(() => buildPluginSet([inlinePlugin(first), inlinePlugin(second)])).toThrow('service "db" is registered by both plugin "one" 1.0.0 ((inline)) and plugin "two" 2.0.0 ((inline))');
    expect(() => buildPluginSet([inlinePlugin(first)], { reservedEnvironmentProviderTypes: ['e2b'] })).toThrow(/registers environment provider "e2b", which is built in/);
  });
});
