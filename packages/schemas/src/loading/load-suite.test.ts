import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validTaskYaml } from '../../test/helpers/fixtures.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { FileValidationError } from '../errors/file-validation-error.js';
import { SuiteNotFoundError } from '../errors/suite-not-found-error.js';
import { listSuites, loadSuite } from './load-suite.js';
import { formatIssue } from '../errors/validation-issue.js';

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

function taskYaml(id: string, suite: string): string {
  return validTaskYaml.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', `suite: ${suite}`);
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('loadSuite', () => {
  it('loads <tasksDir>/<suite>/*/task.yaml sorted by id, plus tasks elsewhere whose suite field names it', async () => {
    await directory.write('custom-dev/zeta/task.yaml', taskYaml('zeta', 'custom-dev'));
    await directory.write('custom-dev/alpha/task.yaml', taskYaml('alpha', 'custom-dev'));
    await directory.write('imported/middle/task.yaml', taskYaml('middle', 'custom-dev'));
    await directory.write('other/unrelated/task.yaml', taskYaml('unrelated', 'other'));
    await directory.write('custom-dev/notes/README.md', 'not a task');
    const suite = await loadSuite(directory.path, 'custom-dev');
    expect(suite.tasks.map((loaded) => loaded.task.id)).toEqual(['alpha', 'middle', 'zeta']);
    expect(suite.warnings).toEqual([]);
    expect(suite.tasks[0]?.file).toBe(path.join(directory.path, 'custom-dev/alpha/task.yaml'));
  });

  it('warns when a task in the suite folder declares another suite', async () => {
    const file = await directory.write('custom-dev/stray/task.yaml', taskYaml('stray', 'elsewhere'));
    const suite = await loadSuite(directory.path, 'custom-dev');
    expect(suite.tasks.map((loaded) => loaded.task.id)).toEqual(['stray']);
    expect(suite.warnings.map(formatIssue)).toEqual([`${file}:3:8: warning: suite: task is in the folder of suite "custom-dev" but declares suite "elsewhere"`]);
  });

  it('rejects duplicate task ids naming both files', async () => {
    const first = await directory.write('custom-dev/a/task.yaml', taskYaml('same', 'custom-dev'));
    const second = await directory.write('custom-dev/b/task.yaml', taskYaml('same', 'custom-dev'));
    const error = await caught(loadSuite(directory.path, 'custom-dev'));
    expect(FileValidationError.isInstance(error)).toBe(true);
    expect((error as FileValidationError).issues.map(formatIssue)).toEqual([`${second}:2:5: id: duplicate task id "same": also defined in ${first}`]);
  });

  it('collects the issues of every invalid task in one error', async () => {
    const first = await directory.write('custom-dev/a/task.yaml', taskYaml('a', 'custom-dev').replace('timeout_sec: 60', 'timeout_sec: 0'));
    const second = await directory.write('custom-dev/b/task.yaml', taskYaml('b', 'custom-dev').replace('workdir: /workspace', 'workdir: workspace'));
    const error = (await caught(loadSuite(directory.path, 'custom-dev'))) as FileValidationError;
    expect(error.issues.map((issue) => [issue.file, issue.path])).toEqual([
      [first, 'environment.timeout_sec'],
      [second, 'environment.workdir'],
    ]);
    expect(error.message.split('\n')[0]).toBe('2 files are not valid (2 errors):');
  });

  it('rejects an unknown suite listing the suites that exist', async () => {
    await directory.write('custom-dev/a/task.yaml', taskYaml('a', 'custom-dev'));
    await directory.write('imported/b/task.yaml', taskYaml('b', 'swe-lite'));
    const error = await caught(loadSuite(directory.path, 'nope'));
    expect(SuiteNotFoundError.isInstance(error)).toBe(true);
    expect((error as SuiteNotFoundError).availableSuites).toEqual(['custom-dev', 'imported', 'swe-lite']);
    expect((error as Error).message).toBe(`unknown suite "nope" in ${directory.path}: suites that exist: custom-dev, imported, swe-lite`);
    expect(await listSuites(directory.path)).toEqual(['custom-dev', 'imported', 'swe-lite']);
  });

  it('rejects a tasks folder that does not exist', async () => {
    const missing = path.join(directory.path, 'missing');
    const error = await caught(loadSuite(missing, 'custom-dev'));
    expect((error as Error).message).toBe(`unknown suite "custom-dev" in ${missing} (the tasks folder does not exist): name the folder that holds your suites with --tasks DIR, or run ab from the project root (the folder with tasks/)`);
  });
});
