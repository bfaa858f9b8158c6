import { describe, expect, it } from 'vitest';
import { validScenarioYaml } from '../../test/helpers/fixtures.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { FileValidationError } from '../errors/file-validation-error.js';
import { loadScenario, validateScenarioFile } from './load-scenario.js';
import { formatIssue } from '../errors/validation-issue.js';

const directory = useTemporaryDirectory();

describe('loadScenario', () => {
  it('loads a scenario and locates any field path, including evaluation parameters', async () => {
    const file = await directory.write('smallest.scenario.yaml', validScenarioYaml);
    const loaded = await loadScenario(file);
    expect(loaded.scenario.run[0]?.evaluations[0]).toEqual({ type: 'string_contains', value: 'hello' });
    expect(loaded.locate('run[0].evaluations[0].value')).toEqual({ line: 9, column: 16 });
    expect(loaded.locate(['run', 0, 'evaluations', 0, 'value'])).toEqual({ line: 9, column: 16 });
    expect(loaded.locate('run[0].evaluations[0].value', { target: 'key' })).toEqual({ line: 9, column: 9 });
    expect(loaded.locate('judgment.strategy')).toEqual({ line: 11, column: 13 });
    // An absent field resolves to its nearest existing parent.
    expect(loaded.locate('run[0].evaluations[0].case_sensitive')).toEqual({ line: 8, column: 9 });
    expect(loaded.locate('run[5].input')).toEqual({ line: 5, column: 1 });
  });

  it('reports every problem with its position', async () => {
    const text = `name: Broken
description: Many problems
plugins:
  - name: "@elizaos/plugin-github"
    enabeld: true
environment:
  type: local
run:
  - input: hi
    conversation:
      max_turns: 50
      user_simulator:
        persona: p
judgment:
  strategy: threshold
`;
    const file = await directory.write('broken.scenario.yaml', text);
    const result = await validateScenarioFile(file);
    expect(result.success).toBe(false);
    expect(result.issues.map(formatIssue)).toEqual([
      `${file}:5:5: plugins[0].enabeld: unknown field "enabeld" (did you mean "enabled"?)`,
      `${file}:11:18: run[0].conversation.max_turns: expected <=20, found 50`,
      `${file}:12:7: run[0].conversation.user_simulator.objective: required field is missing`,
      `${file}:14:1: judgment.threshold: expected a \`threshold\` (0 to 1) for strategy threshold`,
    ]);
  });

  it('reads an older environment.setup block as setup, with a warning, and locates setup paths there', async () => {
    const text = `name: Old
description: Setup under environment
environment:
  type: e2b
  setup:
    virtual_fs:
      input.txt: hello
run:
  - input: cat input.txt
judgment:
  strategy: all_pass
`;
    const file = await directory.write('old.scenario.yaml', text);
    const loaded = await loadScenario(file);
    expect(loaded.scenario.setup).toEqual({ virtual_fs: { 'input.txt': 'hello' } });
    expect(loaded.scenario.environment).toEqual({ type: 'e2b' });
    expect(loaded.warnings.map(formatIssue)).toEqual([
      `${file}:5:3: warning: environment.setup: setup belongs at the top level of the scenario; \`environment.setup\` is read as \`setup\` (older format)`,
    ]);
    expect(loaded.locate('setup.virtual_fs["input.txt"]')).toEqual({ line: 7, column: 18 });
  });

  it('throws a FileValidationError naming missing fields', async () => {
    const file = await directory.write('empty.scenario.yaml', 'name: x\ndescription: y\n');
    const error = await loadScenario(file).catch((caught: unknown) => caught);
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect((error as FileValidationError).errors.map((issue) => issue.path)).toEqual(['environment', 'run', 'judgment']);
  });
});
