import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validScenarioYaml, validTaskYaml } from '../../test/helpers/fixtures.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { validateFile } from './validate-file.js';
import { formatIssue } from './validation-issue.js';

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

describe('validateFile', () => {
  it('validates a task and a scenario by kind', async () => {
    const task = await directory.write('suite/t/task.yaml', validTaskYaml);
    const scenario = await directory.write('s.scenario.yaml', validScenarioYaml);
    expect(await validateFile(task)).toEqual({ file: task, kind: 'task', issues: [], isValid: true });
    expect(await validateFile(scenario)).toEqual({ file: scenario, kind: 'scenario', issues: [], isValid: true });
  });

  it('returns all issues of a file, not only the first', async () => {
    const text = validScenarioYaml.replace('type: local', 'type: local\n  gpu: true').replace('strategy: all_pass', 'strategy: best').concat('extra: 1\n');
    const file = await directory.write('s.scenario.yaml', text);
    const report = await validateFile(file);
    expect(report.isValid).toBe(false);
    expect(report.issues.map(formatIssue)).toEqual([
      `${file}:5:3: environment.gpu: unknown field "gpu" (expected one of: type, image, network, workdir, setup)`,
      `${file}:12:13: judgment.strategy: expected "all_pass" | "any_pass" | "threshold", found "best"`,
      `${file}:13:1: extra: unknown field "extra" (expected one of: name, description, plugins, environment, setup, agent, run, judgment)`,
    ]);
  });

  it('reports a file whose kind it cannot tell, and a missing file', async () => {
    const file = await directory.write('notes.yaml', 'colour: blue\n');
    const unknown = await validateFile(file);
    expect(unknown.kind).toBeUndefined();
    expect(unknown.issues.map(formatIssue)).toEqual([
      `${file}:1:1: cannot tell the kind of file: expected task.yaml (with task_spec_version), *.scenario.yaml or *.matrix.yaml`,
    ]);
    const missing = path.join(directory.path, 'gone.scenario.yaml');
    expect((await validateFile(missing)).issues.map(formatIssue)).toEqual([`${missing}:1:1: file not found`]);
  });
});
