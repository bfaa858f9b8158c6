import type { ManagedContainer } from '../docker/managed-containers.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * The `leftover containers` check: labelled containers nobody will remove, apart from the sandboxes
 * of a live process's SandboxPool (warm, or handed out since), which are listed separately. A pool's
 * sandboxes whose creating process is gone are leftovers like any other.
 */
export function describeLeftovers(all: readonly ManagedContainer[]): DoctorCheck {
  const pooled = all.filter((container) => container.poolId !== undefined && !container.isOrphan);
  const containers = all.filter((container) => !pooled.includes(container));
  const orphans = containers.filter((container) => container.isOrphan);
  const poolIds = [...new Set(pooled.map((container) => container.poolId))].join(', ');
  const poolNote = pooled.length === 0 ? '' : `; ${pooled.length} in live sandbox pool(s) ${poolIds} (warm or handed out, not leftovers)`;
  if (containers.length === 0) return { name: 'leftover containers', status: 'ok', detail: `none${poolNote}`, isRequired: false };
  return {
    name: 'leftover containers',
    status: 'warn',
    detail: `${containers.length} labelled container(s), ${orphans.length} orphaned; remove them with \`ab cleanup\`${poolNote}`,
    isRequired: false,
  };
}
