import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { close, openSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { SandboxError } from '../contract/sandbox-error.js';
import { killProcessTree, waitForProcessesGone } from '../core/process/process-tree.js';
import { emptyResult, finishedResult, interpretExit, openLog, type LogFile, type RunProcessResult } from '../core/process/run-process.js';
import { OutputCapture, type CommandOutputOptions } from '../core/output/output-capture.js';
import { EXIT_CODE_KILLED } from '../contract/sandbox.js';
import { STARTER_FAILURES, STARTER_PROLOGUE, starterArgv, type BwrapStart } from './bwrap-start.js';

const runFile = promisify(execFile);

/**
 * The per-command path (a rootfs without python3, where the executor cannot run): one small
 * `/bin/sh` per sandbox that joined the sandbox's cgroups once and then forks one bwrap per
 * command, so each command is born inside the cgroups. Moving a process into
 * a cgroup v1 costs a kernel RCU grace period (≈13 ms per controller here), which per
 * command would triple bwrap's own start-up time.
 *
 * Protocol (stdin → launcher): `<slot> <argv, shell-quoted>`; the bwrap options are in the
 * file `<slot>.args` (NUL-separated, read by `bwrap --args`), stdin in `<slot>.in`, and
 * stdout/stderr go to the FIFOs `<slot>.out`/`<slot>.err`, so the command gets real pipes
 * (`/dev/stdout` works, which it does not on Node's socket pairs).
 * Events (launcher stdout → us): `hello <pid>`, `ready <slot> <pid>` once the command's
 * output is connected, `exit <slot> <status>`.
 * It starts with the control folder, then the starter prologue's parameters (cgroups,
 * staged mounts, address-space limit: see `BwrapStart`); what is left in "$@" is the argv
 * that starts bwrap (through setpriv when we run as root), and each command appends
 * `--args 3 -- <its argv>` to it.
 */
const LAUNCHER_SCRIPT = `control=$1; shift
${STARTER_PROLOGUE}
nl='
'
exec 9>&1 >/dev/null
echo "hello $$" >&9
while IFS=' ' read -r slot quoted; do
  (
    (
      exec 3<"$control/$slot.args" <"$control/$slot.in" >"$control/$slot.out" 2>"$control/$slot.err"
      eval "set -- \"\\$@\" --args 3 -- $quoted"
      read -r pid rest </proc/self/stat
      echo "ready $slot $pid" >&9
      exec 9>&- "$@"
    ) &
    wait $!
    echo "exit $slot $?" >&9
  ) &
done
kill -KILL 0
`;

/** FIFO pairs made at once when every slot is busy (one `mkfifo` run). */
const FIFO_BATCH = 4;
/** Above this, stdin is written asynchronously; below, a synchronous write is cheaper than a thread-pool round trip. */
const SYNC_WRITE_LIMIT = 64 * 1024;

export interface LaunchRequest extends CommandOutputOptions {
  /** bwrap options (everything before `--`). */
  bwrapArguments: readonly string[];
  /** The command's argv inside the sandbox. */
  argv: readonly string[];
  stdin?: string | Uint8Array;
  timeoutMs: number;
}

interface PendingCommand {
  onReady(pid: number): void;
  onExit(status: number): void;
  onLauncherGone(error: SandboxError): void;
}

export class BwrapLauncher {
  private readonly pending = new Map<number, PendingCommand>();
  private readonly freeSlots: number[] = [];
  private refilling: Promise<void> | undefined;
  private nextSlot = 1;
  private errorOutput = '';
  private lineBuffer = '';
  private isStopped = false;
  private exitError: SandboxError | undefined;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    private readonly controlDir: string,
  ) {}

  /** Whether the launcher process still runs (a dead one is replaced by the sandbox). */
  get isAlive(): boolean {
    return !this.isStopped && this.exitError === undefined;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Starts the launcher and waits until it has joined the cgroups (`procsFiles`), so a
   * cgroup that cannot be joined fails the sandbox's creation, not its first command.
   */
  static async start(options: { controlDir: string; start: BwrapStart }): Promise<BwrapLauncher> {
    const [file = '/bin/sh', ...args] = starterArgv(options.start, LAUNCHER_SCRIPT, 'agentbench-bwrap-launcher', [options.controlDir], options.start.command);
    const child = spawn(file, args, { env: {}, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const launcher = new BwrapLauncher(child, options.controlDir);
    const hello = new Promise<void>((resolve, reject) => {
      launcher.onHello = resolve;
      launcher.onStartFailure = reject;
    });
    launcher.listen();
    try {
      await Promise.all([hello, launcher.refillSlots()]);
    } catch (error) {
      await launcher.stop();
      throw error;
    }
    return launcher;
  }

  private onHello: (() => void) | undefined;
  private onStartFailure: ((error: SandboxError) => void) | undefined;

  private listen(): void {
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.errorOutput = (this.errorOutput + chunk).slice(-4000);
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.lineBuffer += chunk;
      let newline = this.lineBuffer.indexOf('\n');
      while (newline >= 0) {
        this.handleEvent(this.lineBuffer.slice(0, newline));
        this.lineBuffer = this.lineBuffer.slice(newline + 1);
        newline = this.lineBuffer.indexOf('\n');
      }
    });
    this.child.on('error', (error) => this.handleGone(`could not start /bin/sh: ${error.message}`));
    this.child.on('exit', (code, signal) => {
      const reason = code !== null && STARTER_FAILURES[code] !== undefined ? STARTER_FAILURES[code] : `exited with ${code ?? signal}`;
      this.handleGone(`${reason}${this.errorOutput.trim() === '' ? '' : `: ${this.errorOutput.trim()}`}`);
    });
  }

  private handleEvent(line: string): void {
    const [kind, first, second] = line.split(' ');
    if (kind === 'hello') {
      this.onHello?.();
      return;
    }
    const slot = Number(first);
    const value = Number(second);
    const pending = this.pending.get(slot);
    if (pending === undefined) return;
    if (kind === 'ready') pending.onReady(value);
    else if (kind === 'exit') pending.onExit(value);
  }

  private handleGone(reason: string): void {
    if (this.exitError !== undefined) return;
    this.exitError = new SandboxError('internal', `the bwrap launcher ${this.isStopped ? 'was stopped' : 'died'}: ${reason}`);
    this.onStartFailure?.(this.exitError);
    for (const pending of this.pending.values()) pending.onLauncherGone(this.exitError);
  }

  /** Makes FIFO pairs for the next slots (one `mkfifo` for a batch). */
  private refillSlots(): Promise<void> {
    this.refilling ??= (async () => {
      const slots = Array.from({ length: FIFO_BATCH }, () => this.nextSlot++);
      const paths = slots.flatMap((slot) => [this.slotPath(slot, 'out'), this.slotPath(slot, 'err')]);
      await runFile('mkfifo', ['-m', '600', ...paths]);
      this.freeSlots.push(...slots);
    })().finally(() => {
      this.refilling = undefined;
    });
    return this.refilling;
  }

  /**
   * A free slot. Slots are reused: a command ends only once every writer of its FIFOs has
   * closed them (bwrap's pid namespace is gone), so nothing can write into the next one.
   */
  private async takeSlot(): Promise<number> {
    while (this.freeSlots.length === 0) await this.refillSlots();
    return this.freeSlots.pop() as number;
  }

  private slotPath(slot: number, kind: 'args' | 'in' | 'out' | 'err'): string {
    return join(this.controlDir, `${slot}.${kind}`);
  }

  /** Runs one command: the same result semantics as `runProcess`. */
  async run(request: LaunchRequest): Promise<RunProcessResult> {
    const started = performance.now();
    if (request.signal?.aborted === true) {
      return { ...emptyResult(EXIT_CODE_KILLED), killedBy: 'abort', signal: 9, killedProcessCount: 0 };
    }
    if (this.exitError !== undefined) throw this.exitError;
    const slot = await this.takeSlot();
    const paths = {
      args: this.slotPath(slot, 'args'),
      in: this.slotPath(slot, 'in'),
      out: this.slotPath(slot, 'out'),
      err: this.slotPath(slot, 'err'),
    };
    let log: LogFile | undefined;
    try {
      log = request.logPath === undefined ? undefined : await openLog(request.logPath, request.commandText, request.logCapBytes);
    } catch (error) {
      this.freeSlots.push(slot);
      throw error;
    }
    // Small files on the command's path: synchronous writes skip a thread-pool round trip.
    writeFileSync(paths.args, `${request.bwrapArguments.join('\0')}\0`);
    const stdin = request.stdin ?? '';
    if (stdin.length > SYNC_WRITE_LIMIT) await writeFile(paths.in, stdin);
    else writeFileSync(paths.in, stdin);
    // Opened before the launcher opens the other ends: its opens then never block, and
    // non-blocking reads here never stall the thread pool.
    const outFd = openSync(paths.out, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    const errFd = openSync(paths.err, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);

    const stdout = new OutputCapture(request.outputCapBytes, request.onStdout);
    const stderr = new OutputCapture(request.outputCapBytes, request.onStderr);
    let pid: number | undefined;
    let killedBy: 'timeout' | 'abort' | undefined;
    let killing: Promise<number> | undefined;
    let streams: Socket[] = [];

    const killTree = (reason: 'timeout' | 'abort'): void => {
      if (killedBy !== undefined) return;
      killedBy = reason;
      if (pid !== undefined) killing = killNow(pid);
    };
    const killNow = async (rootPid: number): Promise<number> => {
      const processes = await killProcessTree(rootPid);
      await waitForProcessesGone(processes);
      return processes.length;
    };

    const timer = setTimeout(() => killTree('timeout'), Math.max(0, request.timeoutMs - (performance.now() - started)));
    const onAbort = (): void => killTree('abort');
    request.signal?.addEventListener('abort', onAbort, { once: true });

    const outcome = await new Promise<{ status: number } | { error: SandboxError }>((resolve) => {
      let status: number | undefined;
      let openStreams = 2;
      let isReady = false;
      const finishIfDone = (): void => {
        if (status !== undefined && openStreams === 0) resolve({ status });
      };
      const attach = (fd: number, capture: OutputCapture, sink: 'stdout' | 'stderr'): Socket => {
        // A FIFO read end, read by libuv without blocking; 'end' once every writer closed.
        const socket = new Socket({ fd, readable: true, writable: false });
        socket.on('data', (chunk: Buffer) => {
          capture.push(chunk);
          const stream = log?.[sink];
          if (stream !== undefined && !stream.write(chunk)) {
            socket.pause();
            stream.once('drain', () => socket.resume());
          }
        });
        socket.on('error', () => undefined);
        socket.once('close', () => {
          openStreams -= 1;
          finishIfDone();
        });
        return socket;
      };
      this.pending.set(slot, {
        onReady: (readyPid) => {
          pid = readyPid;
          isReady = true;
          // Read only now: before a writer has opened it, a FIFO reads as end-of-file.
          streams = [attach(outFd, stdout, 'stdout'), attach(errFd, stderr, 'stderr')];
          if (killedBy !== undefined) killing = killNow(readyPid);
        },
        onExit: (exitStatus) => {
          status = exitStatus;
          if (!isReady) {
            resolve({
              error: new SandboxError('internal', `the bwrap launcher could not start the command (status ${exitStatus}): ${this.errorOutput.trim()}`),
            });
            return;
          }
          finishIfDone();
        },
        onLauncherGone: (error) => {
          // Its waiters may still run commands: they must not outlive the error.
          if (pid !== undefined && killing === undefined) killing = killNow(pid);
          resolve({ error });
        },
      });
      this.child.stdin.write(`${slot} ${request.argv.map(quoteForLauncher).join(' ')}\n`);
    });

    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    this.pending.delete(slot);
    const killedProcessCount = killing === undefined ? 0 : await killing;
    for (const stream of streams) stream.destroy();
    // A socket owns (and closes) its fd; fds never handed to one are closed here.
    if (streams.length === 0) for (const fd of [outFd, errFd]) close(fd, () => undefined);
    if ('error' in outcome) {
      // The slot is not handed out again: the launcher may still hold its files open.
      await log?.close(undefined);
      throw outcome.error;
    }
    this.freeSlots.push(slot);
    stdout.end();
    stderr.end();
    const durationMs = Math.round(performance.now() - started);
    const interpreted = interpretExit(killedBy, outcome.status, null);
    const stderrText = stderr.text(request.logPath);
    const { signalNumber, endedBy } = interpreted;
    const exitCode = endedBy === undefined ? shellExitCode(interpreted.exitCode, stderrText) : interpreted.exitCode;
    return finishedResult({ exitCode, signalNumber, endedBy, stdout, stderr, stderrText, durationMs, killedProcessCount, log, logPath: request.logPath });
  }

  /** Ends the launcher and everything it started (its whole process group). */
  async stop(): Promise<void> {
    if (this.isStopped) return;
    this.isStopped = true;
    const exited =
      this.child.exitCode !== null || this.child.signalCode !== null
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 5000);
            this.child.once('exit', () => {
              clearTimeout(timer);
              resolve(true);
            });
          });
    // End of input: the launcher kills its own process group (itself, its waiters and
    // every bwrap; bwrap's death tears each sandbox's pid namespace down).
    this.child.stdin.end();
    if (!(await exited)) {
      const processes = await killProcessTree(this.child.pid);
      await waitForProcessesGone(processes);
    }
  }
}

/** One argument for the launcher's `eval "set -- …"`: single-quoted, newlines through `$nl`. */
export function quoteForLauncher(argument: string): string {
  return argument
    .split('\n')
    .map((line) => `'${line.replace(/'/g, `'\\''`)}'`)
    .join('"$nl"');
}

/**
 * bwrap exits 1 when it cannot execute the command; a shell (and the executor) says 127
 * for a missing program and 126 for one it may not run, which is what callers test for.
 */
function shellExitCode(exitCode: number, stderr: string): number {
  if (exitCode !== 1) return exitCode;
  const failure = /^bwrap: execvp [^\n]*: (No such file or directory|Permission denied)\n?$/.exec(stderr);
  if (failure === null) return exitCode;
  return failure[1] === 'Permission denied' ? 126 : 127;
}
