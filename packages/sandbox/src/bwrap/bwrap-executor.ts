import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { SandboxError } from '../contract/sandbox-error.js';
import type { CommandChannel } from '../core/executor/command-channel.js';
import type { ExecutorClient } from '../core/executor/executor-client.js';
import { connectExecutorProcess, executorArgv } from '../core/executor/executor-launch.js';
import { killProcessTree, waitForProcessesGone } from '../core/process/process-tree.js';
import { STARTER_FAILURES, STARTER_PROLOGUE, starterArgv, type BwrapStart } from './bwrap-start.js';

/**
 * The prologue (see `BwrapStart`: the sandbox's cgroups joined — a move into a cgroup v1
 * costs an RCU grace period, ≈13 ms per controller, so it is paid once per executor, not
 * per command —, staged mounts, the address-space limit when there are no cgroups), then
 * it becomes bwrap, through setpriv when we run as root. Everything bwrap starts is born
 * inside the cgroups, as the sandbox's user.
 */
const STARTER_SCRIPT = `${STARTER_PROLOGUE}
exec "$@"`;

/** How long a stopping executor may take to end its commands and exit before its whole process tree is killed. */
const STOP_GRACE_MS = 3000;

export interface BwrapExecutorOptions {
  /** How bwrap is started: as whom, in which cgroups, with which staged mounts. */
  start: BwrapStart;
  /** bwrap options (namespaces, mounts, `--chdir`, `--setenv`), everything before `--`. */
  bwrapArguments: readonly string[];
  /** The workspace as the executor sees it (its file operations stay inside). */
  workdir: string;
}

/**
 * One bubblewrap sandbox whose only command is the executor (`executor.py`): its
 * namespaces are made once, and every command is then a fork+exec inside them. The
 * executor is bwrap's child, so when it exits bwrap's init exits too and the kernel ends
 * every process left in the pid namespace (a `setsid` daemon included) before bwrap does.
 */
export class BwrapExecutor {
  private readonly client: ExecutorClient;
  private readonly exited: Promise<void>;
  private exitCode: number | null = null;
  private hasExited = false;
  private stopping: Promise<void> | undefined;
  private isEndedOnPurpose = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly pythonCommand: string,
  ) {
    this.exited = new Promise<void>((resolve) => {
      // 'close': the process exited and its output (the last exit messages) was read.
      child.once('close', (code) => {
        this.exitCode = code;
        this.hasExited = true;
        resolve();
      });
    });
    this.client = connectExecutorProcess(child);
  }

  /** Spawns bwrap with the executor inside; `waitUntilReady` tells whether it came up. */
  static launch(options: BwrapExecutorOptions): BwrapExecutor {
    const executor = executorArgv(options.workdir);
    const [file = '/bin/sh', ...args] = starterArgv(options.start, STARTER_SCRIPT, 'agentbench-bwrap-executor', [], [
      ...options.start.command,
      ...options.bwrapArguments,
      '--',
      ...executor,
    ]);
    // Its own process group, so a terminal's Ctrl-C reaches us first and we end it in order.
    const child = spawn(file, args, { env: {}, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    return new BwrapExecutor(child, executor[0] ?? 'python3');
  }

  /** The executor's end of the protocol. */
  get channel(): CommandChannel {
    return this.client;
  }

  /** Whether it can take commands: not stopped, and the executor has not exited. */
  get isAlive(): boolean {
    return this.stopping === undefined && !this.client.isClosed;
  }

  /** Whether `stop()` ended it while it still ran (a network change or dispose), rather than it dying by itself. */
  get wasStoppedWhileAlive(): boolean {
    return this.isEndedOnPurpose;
  }

  /**
   * Resolves once the executor said hello, or with 'python-missing' when the root file
   * system has no python3 (the process is then gone). Any other failure throws.
   */
  async waitUntilReady(timeoutMs: number): Promise<'ready' | 'python-missing'> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SandboxError('internal', `the bwrap executor did not start within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.client.ready, timedOut]);
      return 'ready';
    } catch (error) {
      await this.stop();
      const diagnostics = this.client.diagnosticText.trim();
      if (diagnostics.includes(`execvp ${this.pythonCommand}: No such file or directory`)) return 'python-missing';
      const reason = (this.exitCode !== null ? STARTER_FAILURES[this.exitCode] : undefined) ?? (error as Error).message;
      throw new SandboxError('internal', `the bwrap executor did not start: ${reason}${diagnostics === '' ? '' : `: ${diagnostics}`}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Ends the executor and its whole pid namespace. Commands still running are killed by
   * the executor and reported as aborted (137); a daemon a command left behind goes with
   * the namespace. Resolves once no process of it is left. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= this.end();
    return this.stopping;
  }

  /** Last resort at process exit (synchronous): SIGKILL bwrap, whose death takes the namespace down (--die-with-parent). */
  killImmediately(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.hasExited) return;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  private async end(): Promise<void> {
    this.isEndedOnPurpose = !this.client.isClosed;
    // End of input: the executor kills what it runs (each command reports 137, abort) and
    // exits; bwrap's init follows, and the kernel ends the rest of the namespace before
    // bwrap itself exits.
    this.child.stdin.end();
    if (!(await this.waitForExit(STOP_GRACE_MS))) {
      // Stuck (a command stopped it with SIGSTOP, say): kill bwrap and every descendant.
      const processes = await killProcessTree(this.child.pid);
      await waitForProcessesGone(processes);
      await this.waitForExit(STOP_GRACE_MS);
    }
    this.client.handleClose(new SandboxError('internal', 'the sandbox executor was stopped'));
  }

  private async waitForExit(limitMs: number): Promise<boolean> {
    if (this.hasExited || this.child.pid === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    const hasExited = await Promise.race([this.exited.then(() => true), gaveUp]);
    clearTimeout(timer);
    return hasExited;
  }
}
