import { judge } from '@agentbench/scoring';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { formatIssue, loadScenario } from '@agentbench/schemas';
import { validateScenarioFile } from '../../../schemas/src/loading/load-scenario.js';
import { validScenarioYaml } from '../../../schemas/test/helpers/fixtures.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { elizaScenariosDir, elizaScenariosSkipReason } from '../../test/helpers/paths.js';

const skipElizaScenarios = elizaScenariosSkipReason('evaluator-registry.test.ts') !== undefined;
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { createEvaluationContext } from '../context/evaluation-context.js';
import { EvaluationParameterError } from '../errors/evaluation-parameter-error.js';
import { EvaluatorRegistrationError } from '../errors/evaluator-registration-error.js';
import { defineEvaluator } from '../evaluator.js';
import { definePlugin } from '../plugins/plugin-definition.js';
import { toEvaluationOutcome } from './evaluation-report.js';
import { createEvaluatorRegistry } from './evaluator-registry.js';

const directory = useTemporaryDirectory();

// The smallest valid scenario, with mistakes added after its one evaluation (its lines 1-9 stay as they are).
const scenarioText = validScenarioYaml.replace(
  '        value: hello\n',
  `        value: hello
        case_sensitive: "yes"
      - type: strng_contains
        value: x
      - type: word_count
        max: 3
      - type: conversation_length
        max_turns: 4
  - input: talk
    conversation:
      max_turns: 4
      user_simulator:
        persona: p
        objective: o
      final_evaluations:
        - type: context_retention
          test_memory_of: []
`,
);

describe('registry.validate', () => {
  it('reports every problem of a scenario file with file, line, column and field path', async () => {
    const file = await directory.write('mistakes.scenario.yaml', scenarioText);
    const loaded = await loadScenario(file);
    const issues = createEvaluatorRegistry().validateScenario(loaded);
    expect(issues.map(formatIssue)).toEqual([
      `${file}:10:25: run[0].evaluations[0].case_sensitive: expected true or false, found "yes"`,
      `${file}:11:15: run[0].evaluations[1].type: unknown evaluator type "strng_contains" (did you mean "string_contains"?)`,
      expect.stringMatching(
        new RegExp(
          `^${file.replaceAll('.', '\\.')}:13:15: run\\[0\\]\\.evaluations\\[2\\]\\.type: unknown evaluator type "word_count"; known types: command_exit_code_is, .*If a plugin provides it, list the plugin under \`plugins:\` in the scenario, pass --plugin, or add it to agentbench\\.config\\.json$`,
        ),
      ),
      `${file}:15:15: run[0].evaluations[3].type: conversation_length needs a conversation: put it in \`conversation.final_evaluations\` (or turn_evaluations) of a step with \`conversation:\``,
      `${file}:25:27: run[1].conversation.final_evaluations[0].test_memory_of: expected at least one entry, found an empty list`,
    ]);
  });

  it('assertValidScenario throws one EvaluationParameterError listing every issue', async () => {
    const file = await directory.write('mistakes.scenario.yaml', scenarioText);
    const loaded = await loadScenario(file);
    const error = (() => {
      try {
        createEvaluatorRegistry().assertValidScenario(loaded);
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(EvaluationParameterError.isInstance(error)).toBe(true);
    expect((error as EvaluationParameterError).issues).toHaveLength(5);
    expect((error as Error).message.split('\n')[0]).toBe('evaluations are not valid (5 problems):');
  });

  it('checks the common keys of an entry too', () => {
    const issues = createEvaluatorRegistry().validate([{ type: 'file_exists', path: 'a', weight: -1 }, { value: 'x' }], { path: 'run[2].evaluations' });
    expect(issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      'run[2].evaluations[0].weight: expected >=0, found -1',
      'run[2].evaluations[1].type: required field is missing',
    ]);
  });

  it.skipIf(skipElizaScenarios)('finds no problem in any real ElizaOS scenario file that loads', async () => {
    const registry = createEvaluatorRegistry();
    const names = (await readdir(elizaScenariosDir)).filter((name) => name.endsWith('.scenario.yaml'));
    let checked = 0;
    for (const name of names) {
      const result = await validateScenarioFile(path.join(elizaScenariosDir, name));
      // invalid-missing-fields and enhanced-demo are meant to fail the schema; they are not ours to check.
      if (!result.success) continue;
      expect(registry.validateScenario(result.value).map(formatIssue), name).toEqual([]);
      checked += 1;
    }
    expect(checked).toBe(names.length - 2);
  });
});

describe('registry.evaluate', () => {
  const context = createEvaluationContext({ response: 'Hello World' });

  it('negates a clean result: success and score flip, and the message says so', async () => {
    const registry = createEvaluatorRegistry();
    const report = await registry.evaluate({ type: 'string_contains', value: 'Missing', negate: true, weight: 2, description: 'no Missing' }, context);
    expect(report).toEqual({
      type: 'string_contains',
      description: 'no Missing',
      weight: 2,
      negated: true,
      success: true,
      message: 'negated (failed, so passes): response does not contain "Missing"; response: "Hello World"',
    });
    const scored = await registry.evaluate({ type: 'execution_time', max_duration_ms: 100, target_duration_ms: 50, negate: true }, { ...context, durationMs: 75 });
    expect(scored).toMatchObject({ success: false, score: 0.5 });
  });

  it('turns an unknown type, invalid parameters and a thrown error into an error, never a pass', async () => {
    const throwing = defineEvaluator({
      type: 'always_throws',
      params: v.strictObject({}),
      async evaluate() {
        throw new Error('exploded');
      },
    });
    const registry = createEvaluatorRegistry({ plugins: [definePlugin({ name: 'throwing', version: '1.0.0', evaluators: [throwing] })] });
    const unknown = await registry.evaluate({ type: 'nope', negate: true }, context);
    expect(unknown).toMatchObject({ success: false, negated: true });
    expect(unknown.error).toMatch(/^unknown evaluator type "nope"/);
    const invalid = await registry.evaluate({ type: 'string_contains', negate: true }, context);
    expect(invalid).toMatchObject({ success: false, error: 'invalid parameters: value: required field is missing' });
    const thrown = await registry.evaluate({ type: 'always_throws', negate: true }, context);
    expect(thrown).toMatchObject({
      success: false,
      error: 'evaluator "always_throws" of plugin "throwing" 1.0.0 threw: exploded',
      message: 'always_throws: could not evaluate: evaluator "always_throws" of plugin "throwing" 1.0.0 threw: exploded',
    });
  });

  it('refuses a malformed result from an evaluator instead of trusting it', async () => {
    const sloppy = defineEvaluator({
      type: 'sloppy',
      params: v.strictObject({}),
      async evaluate() {
        return { success: true, message: 'fine', score: 7 };
      },
    });
    const registry = createEvaluatorRegistry({ plugins: [definePlugin({ name: 'sloppy-plugin', version: '1.0.0', evaluators: [sloppy] })] });
    const report = await registry.evaluate({ type: 'sloppy' }, context);
    expect(report.success).toBe(false);
    expect(report.error).toBe('the evaluator returned an invalid result (plugin "sloppy-plugin" 1.0.0 ((inline))): score: expected a number from 0 to 1, found 7');
  });

  it('gives reports that @agentbench/scoring judges without negating twice', async () => {
    const registry = createEvaluatorRegistry();
    const reports = await registry.evaluateAll(
      [
        { type: 'string_contains', value: 'Hello' },
        { type: 'string_contains', value: 'Goodbye', negate: true },
      ],
      context,
    );
    expect(judge({ strategy: 'all_pass' }, reports.map(toEvaluationOutcome))).toMatchObject({ passed: true, score: 1 });
    const withError = await registry.evaluateAll([{ type: 'execution_time', max_duration_ms: 1, negate: true }], context);
    expect(judge({ strategy: 'all_pass' }, withError.map(toEvaluationOutcome)).passed).toBe(false);
  });
});

describe('registry.register', () => {
  it('refuses a second evaluator of the same type, naming both sources', () => {
    const registry = createEvaluatorRegistry();
    const clash = defineEvaluator({ type: 'string_contains', params: v.strictObject({}), evaluate: async () => ({ success: true, message: '' }) });
    expect(() => registry.register(clash, { source: 'my test' })).toThrow(new EvaluatorRegistrationError('evaluator type "string_contains" from my test is already registered by built-in'));
    expect(() => createEvaluatorRegistry({ plugins: [definePlugin({ name: 'override', version: '1.0.0', evaluators: [clash] })] })).toThrow(
      'evaluator type "string_contains" from plugin "override" 1.0.0 ((inline)) is already registered by built-in',
    );
  });

  it('lists the built-in types', () => {
    expect(createEvaluatorRegistry().types()).toEqual([
      'command_exit_code_is',
      'context_retention',
      'conversation_flow',
      'conversation_length',
      'execution_time',
      'file_contains',
      'file_exists',
      'llm_judge',
      'regex_match',
      'string_contains',
      'trajectory_contains_action',
      'user_satisfaction',
    ]);
  });
});
