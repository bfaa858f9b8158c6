import type { CommandModule } from 'yargs';
import { agentsCommand } from './agents.js';
import { benchModelsCommand } from './bench-models.js';
import { cleanupCommand } from './cleanup.js';
import { compareCommand } from './compare.js';
import { doctorCommand } from './doctor.js';
import { exportCommand } from './export.js';
import { imageCommand } from './image.js';
import { importSwebenchCommand } from './import-swebench.js';
import { listTasksCommand } from './list-tasks.js';
import { proxyCommand } from './proxy.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { runAgentCommand } from './run-agent.js';
import { runCommand } from './run.js';
import { runTaskCommand } from './run-task.js';
import { scenarioCommand } from './scenario.js';
import { schemaCommand } from './schema.js';
import { validateSuiteCommand } from './validate-suite.js';
import { validateCommand } from './validate.js';
import { viewCommand } from './view.js';

/** Every `ab` command, in the order `--help` lists them. */
// Each module has its own argument type; yargs only needs the common shape here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: ReadonlyArray<CommandModule<any, any>> = [
  runCommand,
  runAgentCommand,
  runTaskCommand,
  replayCommand,
  proxyCommand,
  validateSuiteCommand,
  listTasksCommand,
  validateCommand,
  schemaCommand,
  scenarioCommand,
  reportCommand,
  compareCommand,
  exportCommand,
  viewCommand,
  benchModelsCommand,
  importSwebenchCommand,
  doctorCommand,
  cleanupCommand,
  imageCommand,
  agentsCommand,
];
