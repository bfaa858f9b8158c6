import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root. */
export const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');

/** The example plugin package and the deliberately broken one. */
export const examplePluginDir = path.join(repoRoot, 'fixtures/plugins/evaluator-example');
export const brokenPluginDir = path.join(repoRoot, 'fixtures/plugins/broken-plugin');
/** The example scanner plugin. */
export const scannerExampleDir = path.join(repoRoot, 'fixtures/plugins/scanner-example');

/** Real ElizaOS scenario files, kept beside the repository (see ../shared/fixtures/README.md). */
export const elizaScenariosDir = path.resolve(repoRoot, '../shared/fixtures/eliza-scenarios');
export const hasElizaScenarios = existsSync(elizaScenariosDir);
