import type { CommandModule } from 'yargs';
import { NETWORK_HOLDER_ROLE, removeManagedContainers } from '@agentbench/sandbox';

interface CleanupArguments {
  'run-id'?: string;
  'orphans-only': boolean;
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
      }),
  handler: async (argv) => {
    const { removed, failed } = await removeManagedContainers({
      ...(argv['run-id'] ? { runId: argv['run-id'] } : {}),
      onlyOrphans: argv['orphans-only'],
    });
    for (const container of removed) {
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
      process.stdout.write(`removed ${container.id.slice(0, 12)} ${container.name} (run ${container.runId ?? '-'}, ${what})\n`);
    }
    for (const { container, message } of failed) process.stderr.write(`could not remove ${container.id.slice(0, 12)}: ${message}\n`);
    process.stdout.write(`${removed.length} container(s) removed${failed.length > 0 ? `, ${failed.length} failed` : ''}\n`);
    if (failed.length > 0) process.exitCode = 1;
  },
};
