import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { RepoCache } from '../git/repo-cache.js';
import type { SuiteEvent } from './suite-types.js';
import { validateSuite } from './validate-suite.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');
const toyRepository = path.resolve(here, '../../../../fixtures/repos/toy_repo.git');

const temporary = useTemporaryDirectory({ prefix: 'suite-workspaces-' });
const root = (): string => temporary.path;

// No engine: each attempt clones, fails to get its sandbox and discards its workspace.
describe('validateSuite keeping no workspace', () => {
  it('frees each workspace before the task is reported finished and ends with every one removed', async () => {
    const text = await readFile(toyTask, 'utf8');
    const tasksDir = path.join(root(), 'tasks');
    for (const id of ['a', 'b']) {
      await mkdir(path.join(tasksDir, 's', id), { recursive: true });
      await writeFile(path.join(tasksDir, 's', id, 'task.yaml'), text.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', 'suite: s').replace('url: ../../../fixtures/repos/toy_repo.git', `url: ${toyRepository}`));
    }
    const atFinish: Array<{ taskId: string; isWorkspaceThere: boolean }> = [];
    let runDir = '';
    const result = await validateSuite({
      suite: 's',
      tasksDir,
      outDir: path.join(root(), 'out'),
      mirrors: [],
      cache: new RepoCache({ directory: path.join(root(), 'cache') }),
      concurrency: 1,
      keepWorkspaces: 'none',
      createSandbox: () => Promise.reject(new Error('no engine in this test')),
      onEvent: (event: SuiteEvent) => {
        if (event.type === 'suite-started') runDir = event.runDir;
        if (event.type === 'task-finished') atFinish.push({ taskId: event.taskId, isWorkspaceThere: existsSync(path.join(runDir, 'workspace', event.taskId)) });
      },
    });
    expect(result.tasks.map((task) => task.record?.task_id)).toEqual(['a', 'b']);
    expect(atFinish).toEqual([
      { taskId: 'a', isWorkspaceThere: false },
      { taskId: 'b', isWorkspaceThere: false },
    ]);
    for (const task of result.tasks) expect(task.record?.artifact_paths['workspace']).toBeUndefined();
    // The run awaited every removal: nothing is left, not even the hidden folders they were moved to.
    expect(await readdir(path.join(result.runDir, 'workspace'))).toEqual([]);
    expect(result.workspaceRemovalFailures).toBeUndefined();
  });
});
