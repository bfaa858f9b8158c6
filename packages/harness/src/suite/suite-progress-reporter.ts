import { formatIssue } from '@agentbench/schemas';
import { formatDuration } from '../run/format-duration.js';
import { statusLabel } from './format-suite-summary.js';
import type { SuiteEvent } from './suite-types.js';

export interface SuiteProgressReporterOptions {
  /** Where progress goes (stderr in the CLI, so stdout keeps only the summary). */
  stream: NodeJS.WritableStream;
  /** A terminal: one status line redrawn in place. Otherwise (CI, a file): one line per finished task. */
  isInteractive: boolean;
  /** Redraw period of the status line. Default 1000 ms. */
  refreshMs?: number;
}

export interface SuiteProgressReporter {
  onEvent(event: SuiteEvent): void;
  /** Clears the status line and stops the timer (idempotent). */
  stop(): void;
}

/** What the longest-first order was taken from: earlier runs' durations, the tasks' timeouts, or both. */
function startOrderBasis(timed: number, total: number): string {
  if (timed === 0) return 'no earlier run: by timeout';
  if (timed >= total) return 'by earlier runs\' durations';
  return `${timed} of ${total} by earlier runs' durations, the rest by timeout`;
}

/** The first few task ids of the start order: enough to show what goes first. */
function listStart(taskIds: readonly string[]): string {
  const shown = taskIds.slice(0, 5).join(', ');
  return taskIds.length > 5 ? `${shown}, … (run.json options.start_order)` : shown;
}

/**
 * Shows a suite run's progress. On a terminal: finished tasks scroll by as lines and a status
 * line stays at the bottom (done/total, running, failed, elapsed), redrawn every second. Elsewhere:
 * a line when the run starts and one per finished task, nothing redrawn.
 */
export function createSuiteProgressReporter(options: SuiteProgressReporterOptions): SuiteProgressReporter {
  const { stream, isInteractive } = options;
  const running = new Set<string>();
  let total = 0;
  let done = 0;
  let failed = 0;
  let startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let hasStatusLine = false;
  let isInterrupting = false;

  const statusText = (): string => {
    const names = [...running].slice(0, 3).join(', ');
    const more = running.size > 3 ? ', ...' : '';
    const state = isInterrupting ? ' · stopping (Ctrl-C again to force)' : '';
    return `[${done}/${total}] running ${running.size}${running.size > 0 ? ` (${names}${more})` : ''} · failed ${failed} · ${formatDuration(performance.now() - startedAt)}${state}`;
  };
  const clearStatus = (): void => {
    if (isInteractive && hasStatusLine) stream.write('\r\u001b[2K');
    hasStatusLine = false;
  };
  const drawStatus = (): void => {
    if (!isInteractive) return;
    const columns = (stream as NodeJS.WriteStream).columns ?? 120;
    stream.write(`\r\u001b[2K${statusText().slice(0, Math.max(20, columns - 1))}`);
    hasStatusLine = true;
  };
  const printLine = (line: string): void => {
    clearStatus();
    stream.write(`${line}\n`);
    drawStatus();
  };

  const stop = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    clearStatus();
  };

  // Plain closures, so `onEvent` can be passed around unbound.
  return {
    onEvent: (event) => {
      switch (event.type) {
        case 'suite-started': {
          total = event.total;
          done = event.alreadyFinished;
          startedAt = performance.now();
          const skipped = event.skipped.length > 0 ? `, ${event.skipped.length} skipped (${event.skipped.map((entry) => entry.taskId).join(', ')})` : '';
          for (const warning of event.warnings) printLine(`warning: ${formatIssue(warning)}`);
          const resumed = event.isResumed ? `resuming ${event.runDir}: ${event.alreadyFinished} already done, ` : '';
          printLine(`${resumed}${event.toRun.length} task${event.toRun.length === 1 ? '' : 's'} of ${event.suite} to validate, ${event.concurrency} at a time${skipped}`);
          if (event.order === 'longest-first' && event.toRun.length > 1) printLine(`start order: longest first (${startOrderBasis(event.timedByPastRuns, event.toRun.length)}): ${listStart(event.toRun)}`);
          if (isInteractive && timer === undefined) {
            timer = setInterval(drawStatus, options.refreshMs ?? 1000);
            timer.unref();
          }
          break;
        }
        case 'task-started':
          running.add(event.taskId);
          drawStatus();
          break;
        case 'task-stage':
          break;
        case 'task-finished': {
          running.delete(event.taskId);
          const { result } = event;
          if (result.status !== 'interrupted') done += 1;
          if (result.status === 'invalid' || result.status === 'errored') failed += 1;
          const reason = result.record?.result.failure_reason ?? '';
          const duration = result.record === undefined ? '' : formatDuration(result.record.duration_sec * 1000);
          printLine(`[${done}/${total}] ${event.taskId} ${statusLabel(result.status)}${reason === '' ? '' : ` ${reason}`} ${duration}`.trimEnd());
          break;
        }
        case 'suite-interrupting':
          isInterrupting = true;
          printLine('interrupted: finishing nothing new; stopping running tasks and removing their containers');
          break;
        case 'suite-finished':
          stop();
          break;
      }
    },
    stop,
  };
}
