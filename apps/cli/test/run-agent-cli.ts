/**
 * `runCli` under its old name: every command is in src/commands/index.ts now, so nothing needs adding.
 * Kept while unwritable-out.docker.test.ts (changed on another branch) imports it; new tests import runCli.
 */
export { runCli as runAgentCli } from './run-cli.js';
