// The public surface of @agentbench/installed-agents, in one place: CLI agents as data
// (definitions), installed from npm into a checksummed host cache, mounted read-only into the
// sandbox, given an instruction built from the task, and run there.

// Definitions: one file per agent (the shipped ones in agents/, more in folders of yours).
export { listAgentDefinitions, findAgentDefinition } from './definition/list-agent-definitions.js';
export type { AgentDefinition } from './definition/load-agent-definition.js';

// The host cache: install (or reuse after checking the checksums), and what to mount.
export { installAgent, isAgentInstalled, type AgentInstallation } from './install/install-agent.js';

// The instruction, from the task through a template users can override.
export { buildInstruction } from './instruction/build-instruction.js';

// Running an installed agent's command in a sandbox.
export { runInstalledAgent, type InstalledAgentRun } from './run/run-installed-agent.js';

export { InstalledAgentError } from './errors/installed-agent-error.js';
