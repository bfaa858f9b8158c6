import type { CommandModule } from 'yargs';
import {
  NETWORK_HOLDER_ROLE,
  removeManagedContainers,
  type ManagedContainer,
  type ManagedContainerFilter,
  type RemovedContainers,
} from '@agentbench/sandbox';
import { describeManagedImage } from '../describe-managed-image.js';
import { ENGINES_OPTION, openEngineSet } from '../engines-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface CleanupArguments {
  'run-id'?: string;
  'orphans-only': boolean;
  engines?: string;
}

export const cleanupCommand: CommandModule<object, CleanupArguments> = {
  ...COMMAND_SUMMARIES.cleanup,
  builder: (yargs) =>
    yargs
      .option('run-id', { type: 'string', describe: 'Only containers of this run' })
      .option('orphans-only', {
        type: 'boolean',
        default: false,
        describe: 'Only containers and images whose creating process is gone (safe while other runs are active)',
      })
      .option('engines', ENGINES_OPTION),
  handler: async (argv) => {
    const filter: ManagedContainerFilter = {
      ...(argv['run-id'] ? { runId: argv['run-id'] } : {}),
      onlyOrphans: argv['orphans-only'],
    };
    if (await cleanupEngines(argv.engines, filter)) return;
    const result = await removeManagedContainers(filter);
    const hasFailure = reportRemovals('', result);
    const { removed, failed, removedImages, failedImages } = result;
    const failures = failed.length + failedImages.length;
    process.stdout.write(`${removed.length} container(s) removed${imagesNote(removedImages.length)}${failures > 0 ? `, ${failures} failed` : ''}\n`);
    if (hasFailure) process.exitCode = 1;
  },
};

/** Prints each removal and failure (prefixed with the engine when several are cleaned); returns whether any failed. */
function reportRemovals(prefix: string, { removed, failed, removedImages, failedImages }: RemovedContainers): boolean {
  for (const container of removed) process.stdout.write(`${prefix}removed ${describeRemoved(container)}\n`);
  for (const image of removedImages) process.stdout.write(`${prefix}removed image ${describeManagedImage(image)}\n`);
  for (const { container, message } of failed) process.stderr.write(`${prefix}could not remove ${container.id.slice(0, 12)}: ${message}\n`);
  for (const { image, message } of failedImages) process.stderr.write(`${prefix}could not remove image ${image.reference}: ${message}\n`);
  return failed.length + failedImages.length > 0;
}

// Said only when there were some: the summary line stays as it was when no image was left. Each is named above.
function imagesNote(count: number): string {
  return count === 0 ? '' : ` and ${count} temporary image(s)`;
}

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
  let totalImages = 0;
  let hasFailure = false;
  for (const [engine, result] of results) {
    if ('error' in result) {
      process.stderr.write(`engine ${engine}: not cleaned: ${result.error}\n`);
      hasFailure = true;
      continue;
    }
    total += result.removed.length;
    totalImages += result.removedImages.length;
    if (reportRemovals(`engine ${engine}: `, result)) hasFailure = true;
  }
  process.stdout.write(`${total} container(s) removed${imagesNote(totalImages)} on ${results.size} engine(s)\n`);
  if (hasFailure) process.exitCode = 1;
  return true;
}
