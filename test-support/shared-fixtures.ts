import { existsSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './fixture-repositories.js';
import { skipUnlessRequired } from './skip-unless-required.js';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/**
 * Real files from comparable projects (ElizaOS scenarios, the original Python project's tasks,
 * SWE-bench records), kept beside the repository, not in it: `../shared/fixtures`, or the folder
 * AGENTBENCH_SHARED_FIXTURES names (an empty folder shows what a clone without them runs).
 */
export const sharedFixturesRoot = path.resolve(process.env['AGENTBENCH_SHARED_FIXTURES'] || path.join(repositoryRoot, '../shared/fixtures'));

/** A path under the shared fixtures folder. */
export function sharedFixturePath(...segments: string[]): string {
  return path.join(sharedFixturesRoot, ...segments);
}

/**
 * Why `fileName`'s tests on the shared fixtures `entries` (paths under the folder) cannot run, printed,
 * or undefined when they are all there; under AGENTBENCH_REQUIRE_SHARED_FIXTURES=1 (CI) it throws.
 */
export function sharedFixturesSkipReason(fileName: string, ...entries: string[]): string | undefined {
  const missing = entries.filter((entry) => !existsSync(sharedFixturePath(entry)));
  const reason = missing.length === 0 ? undefined : `shared fixtures not found: ${missing.map((entry) => sharedFixturePath(entry)).join(', ')} (kept beside the repository in ../shared/fixtures; AGENTBENCH_SHARED_FIXTURES names another folder)`;
  return skipUnlessRequired(fileName, reason, 'AGENTBENCH_REQUIRE_SHARED_FIXTURES');
}

/**
 * The cases of an `it.each` read from the shared fixtures, or, when they are skipped, one case naming
 * the reason: an empty list would make its tests vanish from the count instead of showing as skipped.
 */
export function casesOrSkipped(cases: readonly string[], skipReason: string | undefined): string[] {
  return skipReason === undefined ? [...cases] : [`(not listed: ${skipReason})`];
}
