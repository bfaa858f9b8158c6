import type { CommandModule } from 'yargs';
import { NETWORK_HOLDER_ROLE, removeManagedContainers, type ManagedContainer, type ManagedContainerFilter, type RemovedContainers } from '@agentbench/sandbox';
import { ENGINES_OPTION, openEngineSet } from '../engines-option.js';

interface CleanupArguments {
  'run-id'?: string;
  'orphans-only': boolean;
  engines?: string;
}

export const cleanupCommand: CommandModule<object, CleanupArguments> = {
  command: 'cleanup',
  describe: 'Remove containers AgentBench left behind (after a crash or kill -9)',
  builder: (yargs) =>
    yargs
      .option('run-id', { type: 'string', describe: 'Only containers of this run' })
      .option('orphans-only', {
        type: 'boolean',
        default: false,
        describe: 'Only containers whose creating process is gone (safe while other runs are active)',
      })
      .option('engines', ENGINES_OPTION),
  handler: async (argv) => {
    const filter: ManagedContainerFilter = {
      ...(argv['run-id'] ? { runId: argv['run-id'] } : {}),
      onlyOrphans: argv['orphans-only'],
    };
    if (await cleanupEngines(argv.engines, filter)) return;
    const { removed, failed } = await removeManagedContainers(filter);
    for (const container of removed) process.stdout.write(`removed ${describeRemoved(container)}\n`);
    for (const { container, message } of failed) process.stderr.write(`could not remove ${container.id.slice(0, 12)}: ${message}\n`);
    process.stdout.write(`${removed.length} container(s) removed${failed.length > 0 ? `, ${failed.length} failed` : ''}\n`);
    if (failed.length > 0) process.exitCode = 1;
  },
};

function describeRemoved(container: ManagedContainer): string {
  // A network holder serves no one task; any other role (the verdict's sandbox) is a task's.
  const task = `task ${container.taskId ?? '-'}`;
  const what =
    container.role === NETWORK_HOLDER_ROLE
      ? 'network holder'
      : container.poolId !== undefined
        ? `sandbox pool ${container.poolId}`
        : container.role === undefined
          ? task
          : `${task}, ${container.role}`;
  return `${container.id.slice(0, 12)} ${container.name} (run ${container.runId ?? '-'}, ${what})`;
}

/**
 * With an engines list (--engines or agentbench.config.json), cleans every engine of it (TLS and SSH
 * engines too, which the exit hook cannot reach); an engine that does not answer fails the command.
 * Returns false when there is no engines list.
 */
async function cleanupEngines(file: string | undefined, filter: ManagedContainerFilter): Promise<boolean> {
  const engineSet = await openEngineSet(file);
  if (engineSet === undefined) return false;
  const results = await engineSet.removeManagedContainers(filter);
  let total = 0;
  let hasFailure = false;
  for (const [engine, result] of results) {
    if ('error' in result) {
      process.stderr.write(`engine ${engine}: not cleaned: ${result.error}\n`);
      hasFailure = true;
      continue;
    }
    const { removed, failed }: RemovedContainers = result;
    total += removed.length;
    for (const container of removed) process.stdout.write(`engine ${engine}: removed ${describeRemoved(container)}\n`);
    for (const { container, message } of failed) process.stderr.write(`engine ${engine}: could not remove ${container.id.slice(0, 12)}: ${message}\n`);
    if (failed.length > 0) hasFailure = true;
  }
  process.stdout.write(`${total} container(s) removed on ${results.size} engine(s)\n`);
  if (hasFailure) process.exitCode = 1;
  return true;
}
