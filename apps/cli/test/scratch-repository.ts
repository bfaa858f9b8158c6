import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { listManagedContainers, removeManagedContainers } from '@agentbench/sandbox';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';

export interface ScratchRepository {
  /** The test file's scratch folder (tasks and outputs go here). */
  readonly scratch: TemporaryDirectory;
  /** A git repository with one commit (a README), and that commit. */
  readonly repository: string;
  readonly sha: string;
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
    const left = await listManagedContainers({ taskId });
    if (left.length > 0) await removeManagedContainers({ taskId });
    await scratch?.remove();
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
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
  };
}
