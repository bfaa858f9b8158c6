import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** A temp folder for one test, with helpers to write files and links into it; `remove` deletes it. */
export interface TemporaryDirectory {
  path: string;
  write(relativePath: string, content: string): Promise<string>;
  link(relativePath: string, target: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createTemporaryDirectory(): Promise<TemporaryDirectory> {
  const root = await mkdtemp(path.join(tmpdir(), 'agentbench-test-'));
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
