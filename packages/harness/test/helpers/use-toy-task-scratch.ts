import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildFixtureRepositories, repositoryRoot } from '../../../../test-support/fixture-repositories.js';
import { containersLeftBy } from './docker-context.js';

export interface ToyTaskScratch {
  /** The test file's scratch folder (set before its tests). */
  scratch: string;
  /** The bundled toy_fail_pytest, loaded. */
  toy: LoadedTask;
  /** The runs the test file started: once its tests are done, none may have a container left. */
  runIds: string[];
}

/**
 * For a test file that runs attempts of the bundled toy task: before its tests the fixture
 * repositories are built, a scratch folder made and the task loaded; after them no container of
 * the runs it listed may be left, and the folder is removed.
 */
export function useToyTaskScratch(prefix: string): ToyTaskScratch {
  const context: ToyTaskScratch = { scratch: '', toy: undefined as unknown as LoadedTask, runIds: [] };
  beforeAll(async () => {
    buildFixtureRepositories();
    context.scratch = await mkdtemp(path.join(tmpdir(), prefix));
    context.toy = await loadTask(path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'));
  });
  afterAll(async () => {
    const left = (await Promise.all(context.runIds.map((runId) => containersLeftBy(runId)))).flat();
    if (context.scratch !== '') await rm(context.scratch, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
  });
  return context;
}
