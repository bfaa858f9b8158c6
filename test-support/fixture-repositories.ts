import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** The repository's root folder (this file is at test-support/ under it). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds fixtures/repos/ (the bare git repositories the bundled tasks clone). A fresh clone has none
 * until this runs (pnpm's postinstall does it too); the script skips what is already built.
 */
export function buildFixtureRepositories(): void {
  execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
}
