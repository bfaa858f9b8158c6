import type { ManagedContainer } from '../docker/managed-containers.js';
import type { ManagedImage } from '../docker/managed-images.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * The `leftover containers` check: labelled containers nobody will remove, apart from the sandboxes
 * of a live process's SandboxPool (warm, or handed out since), which are listed separately. A pool's
 * sandboxes whose creating process is gone are leftovers like any other. The temporary images we
 * commit (gVisor moves, `agentbench-runtime-move:*`; snapshots, `agentbench-snapshot:*`) are counted
 * beside them, by kind: a live sandbox's, and those a crash left.
 */
export function describeLeftovers(all: readonly ManagedContainer[], images: readonly ManagedImage[] = []): DoctorCheck {
  const pooled = all.filter((container) => container.poolId !== undefined && !container.isOrphan);
  const containers = all.filter((container) => !pooled.includes(container));
  const orphans = containers.filter((container) => container.isOrphan);
  const poolIds = [...new Set(pooled.map((container) => container.poolId))].join(', ');
  const poolNote = pooled.length === 0 ? '' : `; ${pooled.length} in live sandbox pool(s) ${poolIds} (warm or handed out, not leftovers)`;
  if (containers.length === 0 && images.length === 0) return { name: 'leftover containers', status: 'ok', detail: `none${poolNote}`, isRequired: false };
  const orphanedImages = images.filter((image) => image.isOrphan);
  const parts = [
    ...(containers.length === 0 ? [] : [`${containers.length} labelled container(s), ${orphans.length} orphaned`]),
    ...(images.length === 0 ? [] : [`${images.length} temporary image(s) (${imageKinds(images)}), ${orphanedImages.length} orphaned`]),
  ];
  return {
    name: 'leftover containers',
    status: 'warn',
    detail: `${parts.join('; ')}; remove them with \`ab cleanup\`${poolNote}`,
    isRequired: false,
  };
}

const IMAGE_KINDS: ReadonlyArray<[ManagedImage['kind'], string]> = [
  ['runtime-move', 'gVisor move'],
  ['snapshot', 'snapshot'],
  [undefined, 'other'],
];

/** How many images of each kind, in a fixed order: `1 gVisor move, 2 snapshot`. */
function imageKinds(images: readonly ManagedImage[]): string {
  return IMAGE_KINDS.flatMap(([kind, name]) => {
    const count = images.filter((image) => image.kind === kind).length;
    return count === 0 ? [] : [`${count} ${name}`];
  }).join(', ');
}
