import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { containersLeftBy } from './leftover-containers.js';

/** A task on the scratch repository, in the runner image, with the scripted agent. */
export interface ScratchTask {
  suite: string;
  timeoutSec: number;
  /** One setup command, if any. */
  setup?: string;
  /** The test command. */
  run: string;
  /** The scripted agent's steps. */
  script: readonly unknown[];
}

export interface ScratchRepository {
  /** The test file's scratch folder (tasks and outputs go here). */
  readonly scratch: TemporaryDirectory;
  /** A git repository with one commit (a README), and that commit. */
  readonly repository: string;
  readonly sha: string;
  /** Writes `<scratch>/<folder>/task.yaml` for a task with the file's task id on the repository; returns its path. */
  writeTask(folder: string, task: ScratchTask): Promise<string>;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' });
}

/**
 * For a test file whose tasks all have the id `taskId` (unique to the file, so its leftover check
 * never touches another file's containers): a scratch folder with a one-commit repository made
 * before its tests, and after them the scratch folder removed and no container of `taskId` left.
 */
export function useScratchRepository(taskId: string): ScratchRepository {
  let scratch: TemporaryDirectory | undefined;
  let sha: string | undefined;
  beforeAll(async () => {
    scratch = await createTemporaryDirectory();
    const repository = path.join(scratch.path, 'repository');
    await scratch.write('repository/README.md', `${taskId}\n`);
    git(repository, 'init', '-q');
    git(repository, 'add', '.');
    git(repository, 'commit', '-q', '-m', 'a small project');
    sha = git(repository, 'rev-parse', 'HEAD').trim();
  });
  afterAll(async () => {
    const left = await containersLeftBy([{ taskId }]);
    await scratch?.remove();
    expect(left, 'containers left behind').toEqual([]);
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useScratchRepository: read before its beforeAll ran');
    return value;
  };
  return {
    get scratch() {
      return ready(scratch);
    },
    get repository() {
      return path.join(ready(scratch).path, 'repository');
    },
    get sha() {
      return ready(sha);
    },
    writeTask(folder, task) {
      const lines = [
        'task_spec_version: "1.0"',
        `id: ${taskId}`,
        `suite: ${task.suite}`,
        'repo:',
        `  url: ${path.join(ready(scratch).path, 'repository')}`,
        `  commit: ${ready(sha)}`,
        'environment:',
        '  docker_image: agentbench/py-runner:0.1.0',
        '  workdir: /workspace',
        `  timeout_sec: ${task.timeoutSec}`,
        ...(task.setup === undefined ? [] : ['setup:', '  commands:', `    - ${JSON.stringify(task.setup)}`]),
        'run:',
        `  command: ${JSON.stringify(task.run)}`,
        'agent:',
        '  entrypoint: scripted',
        `  script: ${JSON.stringify(task.script)}`,
        '',
      ];
      return ready(scratch).write(path.join(folder, 'task.yaml'), lines.join('\n'));
    },
  };
}
