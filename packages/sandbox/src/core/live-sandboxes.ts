import { constants as osConstants } from 'node:os';

/**
 * The live-sandbox tracker: every sandbox this process made and has not disposed, whatever its
 * backend (docker, bwrap, local, a plugin's). It is what removes them when the process ends without
 * disposing them: on SIGINT/SIGTERM (when nobody else listens) by `dispose()`, and at `exit` by each
 * backend's synchronous last cleanup. (The backend registry, `registry/`, is the one thing called a
 * registry: it knows backends by name; this knows sandboxes.)
 */

/**
 * The last, synchronous cleanup of one sandbox at process exit (an `exit` listener cannot wait for
 * I/O). Sandboxes whose `run` is the same function are cleaned up by one call with all their targets
 * (Docker removes all its containers with one short-lived child).
 */
export interface ExitCleanup<Target = unknown> {
  readonly target: Target;
  run(targets: Target[]): void;
}

export interface LiveSandbox {
  /** Disposes the sandbox (idempotent). */
  dispose(): Promise<void>;
  /** What to do at process exit if it is still alive then; asked at that moment. */
  exitCleanup(): ExitCleanup;
}

const live = new Set<LiveSandbox>();
const handledSignals = ['SIGINT', 'SIGTERM'] as const;
type HandledSignal = (typeof handledSignals)[number];
let isInstalled = false;
let isCleaningUp = false;
// Upper bound on the removal before we exit anyway on a signal.
const signalCleanupTimeoutMs = 10_000;

/** Number of sandboxes alive in this process, of every backend. */
export function liveSandboxCount(): number {
  return live.size;
}

/**
 * Tracks a sandbox until `untrackSandbox`. While at least one is alive this module
 * listens to SIGINT, SIGTERM and `exit`; with none, it listens to nothing.
 */
export function trackSandbox(sandbox: LiveSandbox): void {
  live.add(sandbox);
  if (!isInstalled) install();
}

export function untrackSandbox(sandbox: LiveSandbox): void {
  live.delete(sandbox);
  if (live.size === 0 && isInstalled) uninstall();
}

/** Disposes every live sandbox of every backend; settles when all disposals did (never rejects). */
export async function disposeAllSandboxes(): Promise<void> {
  await Promise.allSettled([...live].map((sandbox) => sandbox.dispose()));
}

function install(): void {
  isInstalled = true;
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('exit', onExit);
}

function uninstall(): void {
  isInstalled = false;
  process.off('SIGINT', onSigint);
  process.off('SIGTERM', onSigterm);
  process.off('exit', onExit);
}

function onSigint(): void {
  onSignal('SIGINT', onSigint);
}

function onSigterm(): void {
  onSignal('SIGTERM', onSigterm);
}

/**
 * A library must not take a host application's signals: when anyone else listens to
 * this signal, they decide what happens (they will exit, or dispose, or ignore it on
 * purpose) and we do nothing here; our `exit` hook still removes what is left if they
 * exit. When we are the only listener, Node's default would have been to die at once,
 * so we dispose the sandboxes first and then exit with the conventional 128 + signal.
 */
function onSignal(signal: HandledSignal, ownListener: () => void): void {
  const others = process.listeners(signal).filter((listener) => listener !== ownListener);
  if (others.length > 0) return;
  const code = 128 + osConstants.signals[signal];
  if (isCleaningUp) {
    // A second Ctrl-C: stop waiting; `exit` makes the last synchronous attempt.
    process.exit(code);
  }
  isCleaningUp = true;
  const timer = setTimeout(() => process.exit(code), signalCleanupTimeoutMs);
  timer.unref();
  void disposeAllSandboxes().finally(() => process.exit(code));
}

/** Last, synchronous attempt at process exit: each backend's cleanup, once per kind, with all its sandboxes. */
function onExit(): void {
  if (live.size === 0) return;
  const byRun = new Map<ExitCleanup['run'], unknown[]>();
  for (const sandbox of live) {
    try {
      const cleanup = sandbox.exitCleanup();
      const targets = byRun.get(cleanup.run) ?? [];
      targets.push(cleanup.target);
      byRun.set(cleanup.run, targets);
    } catch {
      // Best effort: the process is ending either way.
    }
  }
  live.clear();
  for (const [run, targets] of byRun) {
    try {
      run(targets);
    } catch {
      // Best effort: `ab cleanup` finds what Docker left by its labels.
    }
  }
}

/** An exit cleanup that is one synchronous function of its own (a host-folder sandbox killing its processes and removing its folders). */
export function exitCleanupOf(cleanup: () => void): ExitCleanup<() => void> {
  return { target: cleanup, run: runEach };
}

function runEach(cleanups: Array<() => void>): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // Best effort: the process is ending either way.
    }
  }
}
