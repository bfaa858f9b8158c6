import type { Scanner } from './scanner.js';
import { processExitScanner } from './rules/process-exit.js';
import { startupHookFileScanner } from './rules/startup-hook-file.js';
import { testFrameworkPatchScanner } from './rules/test-framework-patch.js';
import { testRunnerConfigScanner } from './rules/test-runner-config.js';

/** The built-in rules, each a scanner named after its rule; they run on every agent attempt. */
export const BUILTIN_SCANNERS: readonly Scanner[] = [testRunnerConfigScanner, testFrameworkPatchScanner, processExitScanner, startupHookFileScanner];

/** Names a plugin's scanner may not take. */
export const BUILTIN_SCANNER_NAMES: readonly string[] = BUILTIN_SCANNERS.map((scanner) => scanner.name);
