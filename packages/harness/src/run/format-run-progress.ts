import { formatDuration } from './format-duration.js';
import type { AgentRunProgress } from './run-progress.js';

/** One line: `12/40 done · 3 running · 25 queued · 10 passed · 1 failed · 1 errored · 2 retried · ETA 4m10s` (and why `-j auto` holds, when it does). */
export function formatRunProgress(progress: AgentRunProgress): string {
  const parts = [
    `${progress.done}/${progress.total} done`,
    `${progress.running} running`,
    `${progress.queued} queued`,
    `${progress.passed} passed`,
    `${progress.failed} failed`,
    `${progress.errored} errored`,
    `${progress.retried} retried`,
    `ETA ${progress.etaSec === null ? '?' : formatDuration(progress.etaSec * 1000)}`,
  ];
  if (progress.held !== undefined) parts.push(`holding: ${progress.held}`);
  return parts.join(' · ');
}
