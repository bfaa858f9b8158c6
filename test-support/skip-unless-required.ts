// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

/**
 * The variables CI sets (in .ci/run) to turn "skipped: X is missing" into a failure. Each names what
 * it requires, so a user's machine may lack it and a test run still says which tests it did not run.
 */
export type RequirementVariable =
  | 'AGENTBENCH_REQUIRE_DOCKER'
  | 'AGENTBENCH_REQUIRE_BWRAP'
  | 'AGENTBENCH_REQUIRE_TOOLS'
  | 'AGENTBENCH_REQUIRE_ROOT'
  | 'AGENTBENCH_REQUIRE_SHARED_FIXTURES';

/**
 * The one rule for tests that need something a machine may lack (an engine, a tool, root, the shared
 * fixtures, a build): `reason` undefined means it is there and the tests run. Otherwise the reason is
 * printed (`[skipped] file: reason`) and returned for `skipIf`, `describe` titles or `context.skip`,
 * except under `variable`=1, where it throws: the test file fails instead of shrinking silently.
 */
export function skipUnlessRequired(fileName: string, reason: string | undefined, variable: RequirementVariable): string | undefined {
  if (reason === undefined) return undefined;
  if (process.env[variable] === '1') throw new Error(`${variable}=1 but ${reason} (${fileName})`);
  console.warn(`[skipped] ${fileName}: ${reason}`);
  return reason;
}
