import { afterAll, beforeAll, expect } from 'vitest';
import { buildFixtureRepositories } from '../../../test-support/fixture-repositories.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { containersLeftBy } from './leftover-containers.js';

export interface DockerScratch {
  /** The test file's scratch folder (tasks and outputs go here). */
  readonly path: string;
  /** The runs the test file started: once its tests are done, none may have a container left. */
  readonly runIds: string[];
}

/**
 * For a Docker test file that runs the bundled tasks: before its tests the fixture repositories are
 * built and a scratch folder made; after them the folder is removed and no container of the runs it
 * listed in `runIds` may be left (a file whose tasks share an id of their own: useScratchRepository).
 */
export function useDockerScratch(): DockerScratch {
  let scratch: TemporaryDirectory | undefined;
  const runIds: string[] = [];
  beforeAll(async () => {
    buildFixtureRepositories();
    scratch = await createTemporaryDirectory();
  });
  afterAll(async () => {
    const left = await containersLeftBy(runIds.map((runId) => ({ runId })));
    await scratch?.remove();
    expect(left, 'containers left behind').toEqual([]);
  });
  return {
    get path() {
      if (scratch === undefined) throw new Error('useDockerScratch: the scratch folder was read before its beforeAll ran');
      return scratch.path;
    },
    runIds,
  };
}
