import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFixturePath, sharedFixturesSkipReason } from '../../../../test-support/shared-fixtures.js';

/** The monorepo root. */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

/** The example plugin package and the deliberately broken one. */
export const examplePluginDir = path.join(repoRoot, 'fixtures/plugins/evaluator-example');
export const brokenPluginDir = path.join(repoRoot, 'fixtures/plugins/broken-plugin');
/** The example scanner plugin. */
export const scannerExampleDir = path.join(repoRoot, 'fixtures/plugins/scanner-example');

/** Real ElizaOS scenario files, kept beside the repository (see ../shared/fixtures/README.md). */
export const elizaScenariosDir = sharedFixturePath('eliza-scenarios');

/** Why `fileName`'s tests on them are skipped (printed), or undefined; fails under AGENTBENCH_REQUIRE_SHARED_FIXTURES=1. */
export function elizaScenariosSkipReason(fileName: string): string | undefined {
  return sharedFixturesSkipReason(fileName, 'eliza-scenarios');
}
