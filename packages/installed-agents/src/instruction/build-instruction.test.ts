import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { buildInstruction } from './build-instruction.js';

let scratch: TemporaryDirectory | undefined;
afterEach(async () => {
  await scratch?.remove();
  scratch = undefined;
});

const task = { id: 'toy_fail_pytest', run: { command: 'pytest -q' }, environment: { workdir: '/workspace' }, validation: { expected_failing_tests: ['tests/test_calc.py::test_add'] } };

describe('buildInstruction', () => {
  it('gives the test command and the failing tests, and a versioned name of the shipped template', async () => {
    const instruction = await buildInstruction({ task });
    expect(instruction.text).toContain('    pytest -q');
    expect(instruction.text).toContain('These tests fail now and must pass once you are done:\n- tests/test_calc.py::test_add');
    expect(instruction.text).not.toContain('The issue to resolve');
    expect(instruction.text).not.toMatch(/\{\{/);
    expect(instruction.version).toMatch(/^instruction_v1@[0-9a-f]{12}$/);
  });

  it('puts problem_statement.md in when the task has one, and the baseline\'s failing tests over the task\'s', async () => {
    scratch = await createTemporaryDirectory();
    await scratch.write('problem_statement.md', 'add() subtracts instead of adding.\n');
    const instruction = await buildInstruction({ task, taskFolder: scratch.path, failingTests: ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_sum'] });
    expect(instruction.text).toContain('The issue to resolve:\n\nadd() subtracts instead of adding.\n');
    expect(instruction.text).toContain('- tests/test_calc.py::test_add\n- tests/test_calc.py::test_sum');
  });

  it('leaves the failing-tests part out when there are none', async () => {
    const instruction = await buildInstruction({ task: { ...task, validation: undefined } });
    expect(instruction.text).not.toContain('These tests fail now');
  });

  it('takes a template of the user\'s, versioned by its name and content', async () => {
    scratch = await createTemporaryDirectory();
    const file = await scratch.write('terse.md', 'Task {{task_id}}: make `{{test_command}}` pass in {{workdir}}.{{#failing_tests}} Failing:\n{{failing_tests}}{{/failing_tests}}');
    const first = await buildInstruction({ task, templateFile: file });
    expect(first.text).toBe('Task toy_fail_pytest: make `pytest -q` pass in /workspace. Failing:\n- tests/test_calc.py::test_add');
    expect(first.version).toMatch(/^terse@[0-9a-f]{12}$/);
    await scratch.write('terse.md', 'Task {{task_id}}.');
    const edited = await buildInstruction({ task, templateFile: file });
    expect(edited.version).not.toBe(first.version);
  });

  it('refuses a template whose text is no longer the one the run started with', async () => {
    scratch = await createTemporaryDirectory();
    const planned = 'Task {{task_id}}.';
    const file = await scratch.write('terse.md', planned);
    const plannedSha256 = createHash('sha256').update(planned).digest('hex');
    expect((await buildInstruction({ task, templateFile: file, templateSha256: plannedSha256 })).text).toBe('Task toy_fail_pytest.');
    await scratch.write('terse.md', 'Task {{task_id}}, any way you can.');
    await expect(buildInstruction({ task, templateFile: file, templateSha256: plannedSha256 })).rejects.toThrow(
      `--instruction-template: ${file} changed since the run started (sha256 ${plannedSha256.slice(0, 12)}… then, `,
    );
  });

  it('refuses a template value it does not know, naming the file and the line', async () => {
    scratch = await createTemporaryDirectory();
    const file = await scratch.write('bad.md', 'Fix it.\nRun {{test_cmd}}.\n');
    await expect(buildInstruction({ task, templateFile: file })).rejects.toThrow(`${file}:2: unknown template value {{test_cmd}}; expected one of {{workdir}}`);
  });
});
