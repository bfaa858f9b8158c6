import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { ulid } from 'ulid';
import { SandboxError } from '../contract/sandbox-error.js';
import type { ExecOptions, ExecResult, FileEntry, Sandbox, SandboxSpec } from '../contract/sandbox.js';
import { checkEnvironment, combineSignals, commandArgv, execSettings } from '../core/exec-settings.js';
import { exitCleanupOf, trackSandbox, untrackSandbox, type ExitCleanup, type LiveSandbox } from '../core/live-sandboxes.js';
import { HostFolderFiles } from '../core/workspace/host-folder-files.js';
import { HostWorkspace } from '../core/workspace/host-workspace.js';
import { killProcessTree, waitForProcessesGone } from '../core/process/process-tree.js';
import { runProcess } from '../core/process/run-process.js';
import { assertDirectory } from '../core/workspace/workdir-check.js';

export interface LocalSandboxOptions {
  /** Do not print the one-line "no isolation" warning. */
  isWarningSilenced?: boolean;
}

/** Environment variable every local command carries, so dispose() finds daemons that left the tree. */
export const LOCAL_SANDBOX_MARKER_VARIABLE = 'AGENTBENCH_SANDBOX_ID';

let hasWarned = false;

/**
 * Runs commands as plain child processes on this machine: NO isolation. The workspace is
 * a host folder and `workdir` is its host path. Only ever chosen explicitly, for quick
 * experiments and machines without Docker or bubblewrap. Limits are not enforced and
 * `setNetwork` changes nothing.
 */
export class LocalSandbox extends HostFolderFiles implements Sandbox, LiveSandbox {
  readonly backend = 'local' as const;
  readonly id: string;
  readonly workdir: string;
  /** Limits are not applied by this backend; `notes` says so for each one requested. */
  readonly limitsEnforced: { memory: 'none'; pids: 'none'; cpus: 'none'; notes: string[] };
  private readonly spec: SandboxSpec;
  protected readonly workspace: HostWorkspace;
  private readonly disposer = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private commandCounter = 0;
  private isDisposed = false;
  private readonly runningPids = new Set<number>();
  /** Run by the live-sandbox tracker when the process exits with this sandbox not disposed. */
  private readonly cleanUpAtExit: () => void;

  private constructor(id: string, spec: SandboxSpec, workspace: HostWorkspace) {
    super();
    this.id = id;
    this.spec = spec;
    this.workspace = workspace;
    this.workdir = workspace.workdir;
    const notes = Object.keys(spec.limits ?? {}).map((limit) => `limits.${limit} is not enforced by the local backend`);
    this.limitsEnforced = { memory: 'none', pids: 'none', cpus: 'none', notes };
    this.cleanUpAtExit = () => {
      for (const pid of this.runningPids) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      if (this.workspace.isOwned) rmSync(this.workspace.hostRoot, { recursive: true, force: true });
    };
    trackSandbox(this);
  }

  static async create(spec: SandboxSpec = {}, options: LocalSandboxOptions = {}): Promise<LocalSandbox> {
    checkEnvironment(spec.env, 'SandboxSpec.env');
    if (options.isWarningSilenced !== true && !hasWarned) {
      hasWarned = true;
      process.stderr.write('agentbench: warning: the local sandbox backend runs commands directly on this machine, with no isolation\n');
    }
    const id = `local-${ulid().toLowerCase()}`;
    if (spec.logDir !== undefined) await mkdir(spec.logDir, { recursive: true });
    const workspace = await HostWorkspace.prepare(spec, undefined, 'agentbench-local-');
    return new LocalSandbox(id, spec, workspace);
  }

  async exec(command: string | string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.assertUsable();
    const argv = commandArgv(command);
    let hostCwd = this.workspace.hostRoot;
    if (options.cwd !== undefined) {
      hostCwd = await this.workspace.toHostPath(options.cwd);
      await assertDirectory(hostCwd, options.cwd);
    }
    const marker = `${LOCAL_SANDBOX_MARKER_VARIABLE}=${this.id}`;
    const environment: Record<string, string> = {
      ...hostBaseEnvironment(),
      ...checkEnvironment(this.spec.env, 'SandboxSpec.env'),
      ...checkEnvironment(options.env, 'ExecOptions.env'),
      [LOCAL_SANDBOX_MARKER_VARIABLE]: this.id,
    };
    this.commandCounter += 1;
    const signal = combineSignals([options.signal, this.disposer.signal]);
    const running = runProcess({
      argv,
      env: environment,
      cwd: hostCwd,
      stdin: options.stdin,
      ...execSettings(command, this.spec, options, this.id, this.commandCounter),
      onStdout: options.onStdout,
      onStderr: options.onStderr,
      signal,
      processMarker: marker,
      onSpawn: (pid) => this.runningPids.add(pid),
      onExit: (pid) => this.runningPids.delete(pid),
    });
    this.running.add(running);
    try {
      const { killedProcessCount: _killed, ...result } = await running;
      return result;
    } finally {
      this.running.delete(running);
    }
  }

  /** No effect: local commands always have the host's network. */
  async setNetwork(_hasNetwork: boolean): Promise<void> {
    this.assertUsable();
  }

  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.disposer.abort();
    await Promise.allSettled([...this.running]);
    // Daemons a command left behind (setsid, double fork) still carry the marker.
    const leftovers = await killProcessTree(undefined, `${LOCAL_SANDBOX_MARKER_VARIABLE}=${this.id}`);
    await waitForProcessesGone(leftovers);
    await this.workspace.removeIfOwned();
    untrackSandbox(this);
  }

  /** The live-sandbox tracker's last cleanup at process exit. */
  exitCleanup(): ExitCleanup {
    return exitCleanupOf(this.cleanUpAtExit);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  protected assertUsable(): void {
    if (this.isDisposed) throw new SandboxError('sandbox_disposed', `sandbox ${this.id} was disposed`, { subject: this.id });
  }
}

/** Only what a command needs to find programs: host secrets (API keys) are not passed on. */
function hostBaseEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  environment['PATH'] ??= '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  return environment;
}

