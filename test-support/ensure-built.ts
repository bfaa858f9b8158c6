import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/** What a package's build reads besides src/: a change to any of them makes its dist stale. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsup.config.ts', '../../tsup.shared.ts', '../../tsconfig.base.json'];

function newestModification(file: string): number {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestModification(path.join(file, entry)));
  return newest;
}

/**
 * Builds the workspace package in `packageFolder` (pnpm --filter `name` build) unless its dist/index.js is newer than
 * every file of its src/ and its build configuration: a test that runs the built package (a child process, a packed
 * tarball) then runs the sources as they are, without paying a rebuild where the build already ran (CI builds every
 * package in scripts/setup.sh, right before the tests). Returns whether it built.
 */
export function ensureBuilt(packageFolder: string, name: string): boolean {
  const built = newestModification(path.join(packageFolder, 'dist', 'index.js'));
  const sources = Math.max(newestModification(path.join(packageFolder, 'src')), ...BUILD_INPUTS.map((input) => newestModification(path.join(packageFolder, input))));
  if (built > sources) return false;
  execFileSync('pnpm', ['--filter', name, 'build'], { cwd: packageFolder, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
  return true;
}
