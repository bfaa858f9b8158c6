import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** A temp folder for one test, with helpers to write files and links into it; `remove` deletes it. */
export interface TemporaryDirectory {
  path: string;
  write(relativePath: string, content: string): Promise<string>;
  link(relativePath: string, target: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createTemporaryDirectory(prefix = 'agentbench-test-'): Promise<TemporaryDirectory> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  return {
    path: root,
    async write(relativePath, content) {
      const target = path.join(root, relativePath);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content, 'utf8');
      return target;
    },
    async link(relativePath, target) {
      const location = path.join(root, relativePath);
      await mkdir(path.dirname(location), { recursive: true });
      await symlink(target, location, 'dir');
      return location;
    },
    async remove() {
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface UseTemporaryDirectoryOptions {
  /** `test` (default): a fresh folder for every test; `block`: one for the whole file or describe block it is called in. */
  per?: 'test' | 'block';
  /** The start of the folder's name, so a leftover says which test made it. */
  prefix?: string;
}

/**
 * The hooks every test file wrote again (a `let` folder, `mkdtemp` before, `rm` after) in one call: the folder is
 * made before each test (or once for the block) and removed after it. The returned object reads the current
 * folder, so use it inside tests and hooks, not at module level; hooks registered after the call see the folder.
 */
export function useTemporaryDirectory(options: UseTemporaryDirectoryOptions = {}): TemporaryDirectory {
  const isPerBlock = options.per === 'block';
  let current: TemporaryDirectory | undefined;
  (isPerBlock ? beforeAll : beforeEach)(async () => {
    current = await createTemporaryDirectory(options.prefix);
  });
  (isPerBlock ? afterAll : afterEach)(async () => {
    await current?.remove();
    current = undefined;
  });
  const made = (): TemporaryDirectory => {
    if (current === undefined) throw new Error('useTemporaryDirectory: the folder exists only inside a test or hook');
    return current;
  };
  return {
    get path() {
      return made().path;
    },
    write: (relativePath, content) => made().write(relativePath, content),
    link: (relativePath, target) => made().link(relativePath, target),
    remove: () => made().remove(),
  };
}
