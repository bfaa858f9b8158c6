import type { ManagedImage } from '@agentbench/sandbox';

/**
 * One removed (or kept) temporary image, said for what its labels make it: a gVisor move commits a
 * sandbox's setup container before it runs under runsc; a snapshot is what the harness commits of an
 * attempt's sandbox right after setup, for its verdict's sandbox to start from (so setup runs once).
 */
export function describeManagedImage(image: ManagedImage): string {
  const owner = `run ${image.runId ?? '-'}, task ${image.taskId ?? '-'}`;
  switch (image.kind) {
    case 'runtime-move':
      return `${image.reference} (gVisor move of ${image.committedFrom}, ${owner})`;
    case 'snapshot':
      return `${image.reference} (post-setup snapshot of ${image.committedFrom} for the verdict's sandbox, ${owner})`;
    case undefined:
      return `${image.reference} (committed from ${image.committedFrom}, ${owner})`;
  }
}
