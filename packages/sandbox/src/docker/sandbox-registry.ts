import { spawnSync } from 'node:child_process';
import { constants as osConstants } from 'node:os';

/** Where a container lives, enough to remove it from a fresh process. */
export interface EngineEndpoint {
  socketPath?: string;
  host?: string;
  port?: number;
}

export interface LiveSandbox {
  readonly containerId: string;
  readonly endpoint: EngineEndpoint;
  /** An image made for this sandbox alone (a gVisor move's, see runtime-move-image.ts), removed after its container. */
  readonly runtimeMoveImage?: string | undefined;
  /** Removes the container (idempotent). */
  dispose(): Promise<void>;
}

const live = new Set<LiveSandbox>();
const handledSignals = ['SIGINT', 'SIGTERM'] as const;
type HandledSignal = (typeof handledSignals)[number];
let isInstalled = false;
let isCleaningUp = false;
// Upper bound on the removal before we exit anyway on a signal.
const signalCleanupTimeoutMs = 10_000;

/** Number of Docker sandboxes alive in this process. */
export function liveSandboxCount(): number {
  return live.size;
}

/**
 * Tracks a sandbox until `unregisterSandbox`. While at least one is alive this module
 * listens to SIGINT, SIGTERM and `exit`; with none, it listens to nothing.
 */
export function registerSandbox(sandbox: LiveSandbox): void {
  live.add(sandbox);
  if (!isInstalled) install();
}

export function unregisterSandbox(sandbox: LiveSandbox): void {
  live.delete(sandbox);
  if (live.size === 0 && isInstalled) uninstall();
}

/** Disposes every live sandbox; settles when all removals did (never rejects). */
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
 * so we remove the containers first and then exit with the conventional 128 + signal.
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

/**
 * Last, synchronous attempt at process exit (an `exit` listener cannot wait for I/O):
 * a short-lived Node child removes the containers through the Engine API socket.
 */
function onExit(): void {
  if (live.size === 0) return;
  const targets = [...live].map((sandbox) => ({
    id: sandbox.containerId,
    ...(sandbox.runtimeMoveImage === undefined ? {} : { image: sandbox.runtimeMoveImage }),
    ...sandbox.endpoint,
  }));
  live.clear();
  removeContainersSynchronously(targets);
}

// Each target's image (if any) is removed once its container is: an image in use cannot be.
const removerScript = `
const http = require('node:http');
const targets = JSON.parse(process.argv[1]);
let pending = targets.length;
function call(target, method, path, then) {
  const options = { method, path, timeout: 8000 };
  if (target.socketPath) options.socketPath = target.socketPath; else { options.host = target.host; options.port = target.port; }
  const request = http.request(options, (response) => { response.resume(); response.on('end', then); });
  request.on('error', then);
  request.on('timeout', () => request.destroy());
  request.end();
}
for (const target of targets) {
  call(target, 'DELETE', '/containers/' + encodeURIComponent(target.id) + '?force=true&v=true', () => {
    if (target.image) call(target, 'DELETE', '/images/' + encodeURIComponent(target.image) + '?force=true', done);
    else done();
  });
}
function done() { pending -= 1; if (pending === 0) process.exit(0); }
`;

export function removeContainersSynchronously(targets: Array<{ id: string; image?: string } & EngineEndpoint>): void {
  const reachable = targets.filter((target) => target.socketPath !== undefined || target.host !== undefined);
  if (reachable.length === 0) return;
  try {
    spawnSync(process.execPath, ['-e', removerScript, JSON.stringify(reachable)], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    // Best effort: `ab cleanup` finds what is left by its labels.
  }
}
