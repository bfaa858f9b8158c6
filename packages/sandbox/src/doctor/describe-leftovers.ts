import type { ManagedContainer } from '../docker/managed-containers.js';
import type { ManagedImage } from '../docker/managed-images.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * The `leftover containers` check: labelled containers nobody will remove, apart from the sandboxes
 * of a live process's SandboxPool (warm, or handed out since), which are listed separately. A pool's
 * sandboxes whose creating process is gone are leftovers like any other. The temporary images of gVisor
 * moves (`agentbench-runtime-move:*`) are counted beside them: a live sandbox's, and those a crash left.
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
    ...(images.length === 0 ? [] : [`${images.length} temporary gVisor move image(s), ${orphanedImages.length} orphaned`]),
  ];
  return {
    name: 'leftover containers',
    status: 'warn',
    detail: `${parts.join('; ')}; remove them with \`ab cleanup\`${poolNote}`,
    isRequired: false,
  };
}
