import { setMaxListeners } from 'node:events';
import { rmdirSync, rmSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Docker from 'dockerode';
import { ulid } from 'ulid';
import { SandboxError } from '../contract/sandbox-error.js';
import { execOnChannel, type ChannelExecOptions } from '../core/executor/channel-exec.js';
import type { CommandChannel } from '../core/executor/command-channel.js';
import { checkEnvironment, combineSignals, commandArgv, execSettings, type ExecSettings } from '../core/exec-settings.js';
import { exitCleanupOf, trackSandbox, untrackSandbox, type ExitCleanup, type LiveSandbox } from '../core/live-sandboxes.js';
import { giveTreeTo } from '../core/workspace/file-owner.js';
import { HostFolderFiles } from '../core/workspace/host-folder-files.js';
import { HostWorkspace } from '../core/workspace/host-workspace.js';
import { assertDirectory, checkWorkdir } from '../core/workspace/workdir-check.js';
import { emptyResult } from '../core/process/run-process.js';
import { resolveWorkspacePath } from '../core/workspace/path-safety.js';
import { ensureRootfs, readRootfsDescription } from './ensure-rootfs.js';
import { EXIT_CODE_KILLED, type ExecOptions, type ExecResult, type FileEntry, type Sandbox, type SandboxSpec } from '../contract/sandbox.js';
import { requireBwrapTools } from './bwrap-availability.js';
import { BwrapExecutor } from './bwrap-executor.js';
import { BwrapLauncher } from './bwrap-launcher.js';
import type { BwrapStart, StagedMount } from './bwrap-start.js';
import { SandboxCgroup, type LimitsEnforcement } from './cgroup.js';
import { dropPrivilegesArguments, isReachableBy, sandboxUser, type SandboxUser } from './sandbox-user.js';

export const BWRAP_DEFAULT_WORKDIR = '/workspace';
/** Same defaults as the Docker backend, so a task behaves alike on both. */
export const BWRAP_DEFAULT_MEMORY_MB = 2048;
export const BWRAP_DEFAULT_PIDS = 256;
export const BWRAP_DEFAULT_CPUS = 2;
/**
 * Our own processes (and threads: the pids controller counts both) in the sandbox's pids
 * cgroup, not counted against `limits.pids`. On the executor path: bwrap, the pid
 * namespace's init, the executor, and the executor thread that runs a command. On the
 * per-command path: the launcher, and per running command a waiter, bwrap and the init.
 */
export const BWRAP_HELPER_PROCESSES = 4;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const SANDBOX_HOME = '/root';
/** How long a new executor may take to say hello (bwrap, cgroup joins, Python start). */
const EXECUTOR_READY_TIMEOUT_MS = 30_000;
/**
 * The kernel's knobs under /proc, bound read-only over the sandbox's own /proc (Docker's
 * read-only paths): sysctls (/proc/sys: core_pattern, file-max, overcommit…), the SysRq
 * trigger, IRQ affinity, bus and file system settings. The sandbox's user (never root
 * outside) could not write them anyway; this makes it two walls. Absent ones are skipped.
 */
const READ_ONLY_PROC_PATHS: readonly string[] = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs'];

/** One bind mount of a host folder or file into the sandbox. */
interface Bind {
  source: string;
  destination: string;
  isReadOnly: boolean;
}

/** How commands are started: inside one long-lived bwrap by the executor, or one bwrap each (no python3 in the rootfs). */
export type BwrapCommandPath = 'executor' | 'per-command';

export interface BwrapSandboxOptions {
  /** Docker client used to export `spec.image` when `spec.rootfs` is not given. */
  docker?: Docker;
  /** Set false to apply limits without cgroups even where they are writable (memory then by RLIMIT_AS). Default true. */
  shouldUseCgroups?: boolean;
  /**
   * Set false to start one bwrap per command even when the rootfs has python3: the slower
   * path a rootfs without python3 takes anyway. Default true.
   */
  shouldUseExecutor?: boolean;
  /** Debug-level notes: the no-python3 fallback, executor restarts. Default: dropped. */
  onDebug?: (message: string) => void;
}

/** What runs the next command. */
type CommandRunner = { executor: BwrapExecutor } | { launcher: BwrapLauncher };

interface CommandSettings extends ExecSettings {
  argv: string[];
  cwd: string;
  /** The spec's env, then the command's (the image's env is the sandbox's base). */
  environment: Record<string, string>;
}

/**
 * Commands run with bubblewrap, no daemon, over a read-only root file system folder
 * (`spec.rootfs`, e.g. the runner image exported by `ensureRootfs`), in fresh user, pid,
 * ipc, uts, cgroup and network namespaces, all capabilities dropped, no further user
 * namespaces, and the kernel's knobs under /proc (sysctls, SysRq) read-only. Root inside
 * is an unprivileged user outside: uid 65534 when we run as root (dropped with setpriv
 * after joining the cgroups), else our own uid; so the workspace and the per-sandbox
 * folders are given to that user on the host. One long-lived bwrap per sandbox runs the
 * executor, and each command is a fork+exec inside its namespaces; a rootfs without
 * python3 gets one bwrap per command instead. Writable: the workspace (a host folder,
 * bound at `workdir`), and per sandbox `/tmp`, `/root` and `/usr/local` (so `pip install`
 * works), which persist between commands. Limits go through one cgroup per sandbox when
 * cgroups are writable.
 */
export class BwrapSandbox extends HostFolderFiles implements Sandbox, LiveSandbox {
  readonly backend = 'bwrap' as const;
  readonly id: string;
  readonly workdir: string;
  /** The root file system folder in use. */
  readonly rootfs: string;
  /** How each limit is applied (cgroup, rlimit) or why it is not. */
  readonly limitsEnforced: LimitsEnforcement;
  private readonly spec: SandboxSpec;
  private readonly options: BwrapSandboxOptions;
  protected readonly workspace: HostWorkspace;
  private readonly stateDir: string;
  private readonly cgroup: SandboxCgroup | undefined;
  /** How each bwrap is started (as whom, cgroups, staged mounts); shared by the executor and the launcher. */
  private readonly start: BwrapStart;
  private readonly controlDir: string;
  private readonly isolatedArguments: readonly string[];
  private readonly networkedArguments: readonly string[];
  /** PATH, HOME and the image's ENV: every command's environment before the spec's and its own. */
  private readonly baseEnvironment: Readonly<Record<string, string>>;
  private readonly running = new Set<Promise<unknown>>();
  private path: BwrapCommandPath;
  /** The executor for the current network mode, started or starting; undefined until needed. */
  private executor: Promise<BwrapExecutor | undefined> | undefined;
  /** Every executor whose process may still run (for dispose and the exit hook). */
  private readonly liveExecutors = new Set<BwrapExecutor>();
  private launcher: BwrapLauncher | undefined;
  private launcherStart: Promise<BwrapLauncher> | undefined;
  private hasNetwork: boolean;
  /** Aborted to end the commands running now: at a network change (they had the old mode) and at dispose. */
  private commandKiller = newCommandKiller();
  private commandsOnCurrentNetwork = new Set<Promise<unknown>>();
  private networkChange: Promise<void> = Promise.resolve();
  private commandCounter = 0;
  private oomKillsSeen = 0;
  private isDisposed = false;
  /** Run by the live-sandbox tracker when the process exits with this sandbox not disposed. */
  private readonly cleanUpAtExit: () => void;

  private constructor(fields: {
    id: string;
    spec: SandboxSpec;
    options: BwrapSandboxOptions;
    rootfs: string;
    workspace: HostWorkspace;
    stateDir: string;
    cgroup: SandboxCgroup | undefined;
    limitsEnforced: LimitsEnforcement;
    start: BwrapStart;
    controlDir: string;
    isolatedArguments: string[];
    networkedArguments: string[];
    baseEnvironment: Record<string, string>;
  }) {
    super();
    this.id = fields.id;
    this.spec = fields.spec;
    this.options = fields.options;
    this.rootfs = fields.rootfs;
    this.workspace = fields.workspace;
    this.workdir = fields.workspace.workdir;
    this.stateDir = fields.stateDir;
    this.cgroup = fields.cgroup;
    this.limitsEnforced = fields.limitsEnforced;
    this.start = fields.start;
    this.controlDir = fields.controlDir;
    this.isolatedArguments = fields.isolatedArguments;
    this.networkedArguments = fields.networkedArguments;
    this.baseEnvironment = fields.baseEnvironment;
    this.hasNetwork = fields.spec.hasNetwork === true;
    this.path = fields.options.shouldUseExecutor === false ? 'per-command' : 'executor';
    // Not disposed when the process exits: kill every bwrap we started (their namespaces
    // go with them), then remove what can be removed synchronously.
    this.cleanUpAtExit = () => {
      for (const executor of this.liveExecutors) executor.killImmediately();
      const launcherPid = this.launcher?.pid;
      if (launcherPid !== undefined) {
        try {
          process.kill(-launcherPid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      rmSync(this.stateDir, { recursive: true, force: true });
      if (this.workspace.isOwned) rmSync(this.workspace.hostRoot, { recursive: true, force: true });
      for (const path of this.cgroupPaths) {
        try {
          rmdirSync(path);
        } catch {
          // Still busy while the killed processes go; an empty cgroup folder is harmless.
        }
      }
    };
    trackSandbox(this);
  }

  static async create(spec: SandboxSpec = {}, options: BwrapSandboxOptions = {}): Promise<BwrapSandbox> {
    const tools = await requireBwrapTools();
    const user = sandboxUser();
    checkEnvironment(spec.env, 'SandboxSpec.env');
    const workdir = checkWorkdir(spec.workdir ?? BWRAP_DEFAULT_WORKDIR);
    const limits = checkLimits(spec);
    const rootfs = await resolveRootfs(spec, options);
    await assertRootfsFolder(rootfs, workdir, 'SandboxSpec.workdir', user);
    if (spec.logDir !== undefined) await mkdir(spec.logDir, { recursive: true });

    const id = `bwrap-${ulid().toLowerCase()}`;
    const stateDir = await realpath(await mkdtemp(join(tmpdir(), 'agentbench-bwrap-state-')));
    let workspace: HostWorkspace | undefined;
    let cgroup: SandboxCgroup | undefined;
    let sandbox: BwrapSandbox;
    try {
      if (user.isDropped) await makeReachable(stateDir, user);
      const stateBinds = await prepareStateFolders(rootfs, stateDir, user);
      // Root inside is `user` outside: the workspace must be theirs to write (mountWorkspace included).
      workspace = await HostWorkspace.prepare(spec, workdir, 'agentbench-bwrap-', user.isDropped ? { owner: { uid: user.uid, gid: user.gid } } : {});
      const created =
        options.shouldUseCgroups === false
          ? { cgroup: undefined, enforcement: withoutCgroups() }
          : await SandboxCgroup.create(id, {
              memoryBytes: limits.memoryMb * 1024 * 1024,
              pids: limits.pids + BWRAP_HELPER_PROCESSES,
              cpus: limits.cpus,
            });
      cgroup = created.cgroup;
      const limitsEnforced = created.enforcement;
      let addressSpaceKb: number | undefined;
      if (limitsEnforced.memory === 'none') {
        // Without a memory cgroup the address-space rlimit is the closest we have (per process).
        addressSpaceKb = Math.round(limits.memoryMb * 1024);
        limitsEnforced.memory = 'rlimit';
        limitsEnforced.notes.push('memory limited per process by RLIMIT_AS (ulimit -v), not for the whole sandbox');
      }
      const controlDir = join(stateDir, 'control');
      await mkdir(controlDir, { mode: 0o700 });

      const binds: Bind[] = [
        { source: rootfs, destination: '/', isReadOnly: true },
        ...stateBinds,
        { source: workspace.hostRoot, destination: workdir, isReadOnly: false },
      ];
      const networkBinds = await hostNameResolution(rootfs);
      // bwrap resolves each source as the sandbox's user: what it cannot reach is staged.
      const stagedMounts = user.isDropped ? await stageUnreachable([...binds, ...networkBinds], stateDir, user) : [];
      const start: BwrapStart = {
        command: [...dropPrivilegesArguments(user, tools.setprivPath), tools.bwrapPath],
        procsFiles: cgroup?.procsFiles ?? [],
        stagedMounts,
        ...(addressSpaceKb === undefined ? {} : { addressSpaceKb }),
        ...(tools.unsharePath !== undefined && tools.mountPath !== undefined ? { stagingPrograms: { unsharePath: tools.unsharePath, mountPath: tools.mountPath } } : {}),
      };
      const bindArguments = (list: readonly Bind[]): string[] =>
        list.flatMap((bind) => [bind.isReadOnly ? '--ro-bind' : '--bind', stagedSource(bind.source, stagedMounts), bind.destination]);
      const [rootBind, ...otherBinds] = binds;
      const common = [
        // Root inside is the sandbox's user outside (uid 65534 when we run as root, else our own uid).
        '--unshare-user', '--uid', '0', '--gid', '0',
        ...(tools.canDisableUserNamespaces ? ['--disable-userns'] : []),
        ...bindArguments(rootBind === undefined ? [] : [rootBind]),
        '--die-with-parent',
        '--new-session',
        '--proc', '/proc',
        ...READ_ONLY_PROC_PATHS.flatMap((path) => ['--ro-bind-try', path, path]),
        '--dev', '/dev',
        ...bindArguments(otherBinds),
        '--cap-drop', 'ALL',
        '--clearenv',
      ];
      const isolatedArguments = ['--unshare-all', '--hostname', 'agentbench', ...common];
      const networkedArguments = ['--unshare-all', '--share-net', '--hostname', 'agentbench', ...common, ...bindArguments(networkBinds)];

      const description = await readRootfsDescription(rootfs);
      const baseEnvironment: Record<string, string> = { PATH: DEFAULT_PATH, HOME: SANDBOX_HOME };
      for (const entry of description?.env ?? []) {
        const separator = entry.indexOf('=');
        if (separator > 0) baseEnvironment[entry.slice(0, separator)] = entry.slice(separator + 1);
      }
      sandbox = new BwrapSandbox({
        id,
        spec,
        options,
        rootfs,
        workspace,
        stateDir,
        cgroup,
        limitsEnforced,
        start,
        controlDir,
        isolatedArguments,
        networkedArguments,
        baseEnvironment,
      });
    } catch (error) {
      await cgroup?.remove();
      await workspace?.removeIfOwned();
      await rm(stateDir, { recursive: true, force: true });
      throw error;
    }
    try {
      // Started now, so a cgroup that cannot be joined fails the creation, not the first command.
      await sandbox.commandRunner();
    } catch (error) {
      await sandbox.dispose();
      throw error;
    }
    return sandbox;
  }

  /** The sandbox's cgroup folders (one per controller hierarchy on cgroup v1); empty without cgroups. */
  get cgroupPaths(): string[] {
    return this.cgroup?.folders.map((folder) => folder.path) ?? [];
  }

  /** Host folder holding the sandbox's /tmp, HOME, /usr/local and the launcher's files; removed on dispose. */
  get stateFolder(): string {
    return this.stateDir;
  }

  /** `executor` (fast path) or `per-command` (the rootfs has no python3, or `shouldUseExecutor: false`). */
  get commandPath(): BwrapCommandPath {
    return this.path;
  }

  async exec(command: string | string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.assertUsable();
    const argv = commandArgv(command);
    const cwd = resolveWorkspacePath(this.workdir, options.cwd ?? '.');
    // The workspace root needs no check (we made or were given it); any other cwd does.
    if (cwd !== this.workdir) await assertDirectory(await this.workspace.toHostPath(cwd), options.cwd ?? '.');
    // Not at create: the caller may have filled the mounted workspace while the sandbox started.
    await this.workspace.handOver();
    const environment = {
      ...checkEnvironment(this.spec.env, 'SandboxSpec.env'),
      ...checkEnvironment(options.env, 'ExecOptions.env'),
    };
    this.commandCounter += 1;
    const settings: CommandSettings = {
      argv,
      cwd,
      environment,
      ...execSettings(command, this.spec, options, this.id, this.commandCounter),
    };
    if (options.signal?.aborted === true) return abortedResult(0);
    const running = this.run(settings, options);
    this.running.add(running);
    try {
      const result = await running;
      if (result.exitCode === EXIT_CODE_KILLED && result.killedBy === 'signal' && this.cgroup !== undefined) {
        // The OOM killer sends SIGKILL; its counter tells it apart from any other kill (the
        // executor cannot read it: there is no /sys inside).
        const oomKills = await this.cgroup.oomKillCount();
        if (oomKills > this.oomKillsSeen) {
          this.oomKillsSeen = oomKills;
          result.killedBy = 'oom';
        }
      }
      return result;
    } finally {
      this.running.delete(running);
    }
  }

  /**
   * Commands share the host's network (`--share-net`) or get none. Changing it ends the
   * commands still running (137, killedBy 'abort') and the old namespace with every process
   * started in it, daemons included; it resolves once they are gone and the executor for
   * the new mode is ready.
   */
  async setNetwork(hasNetwork: boolean): Promise<void> {
    this.assertUsable();
    const change = this.networkChange.catch(() => undefined).then(() => this.applyNetwork(hasNetwork));
    this.networkChange = change;
    await change;
  }

  async dispose(): Promise<void> {
    if (this.isDisposed) return;
    this.isDisposed = true;
    // Running commands are killed (137, abort); ending the executors takes their namespaces down.
    this.commandKiller.abort();
    await Promise.allSettled([...this.liveExecutors].map((executor) => this.retire(executor)));
    await Promise.allSettled([...this.running]);
    await this.launcherStart?.catch(() => undefined);
    await this.launcher?.stop();
    await this.cgroup?.remove();
    await this.workspace.removeIfOwned();
    await rm(this.stateDir, { recursive: true, force: true, maxRetries: 3 });
    untrackSandbox(this);
  }

  /** The live-sandbox tracker's last cleanup at process exit. */
  exitCleanup(): ExitCleanup {
    return exitCleanupOf(this.cleanUpAtExit);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private async run(settings: CommandSettings, options: ExecOptions): Promise<ExecResult> {
    const runner = await this.commandRunner();
    // Taken after the runner, so a command that waited for a network change runs in the new mode.
    const signal = combineSignals([options.signal, this.commandKiller.signal]);
    const commands = this.commandsOnCurrentNetwork;
    const running = 'executor' in runner ? this.runOnExecutor(runner.executor, settings, options, signal) : this.runPerCommand(runner.launcher, settings, options, signal);
    commands.add(running);
    try {
      return await running;
    } finally {
      commands.delete(running);
    }
  }

  private async runOnExecutor(executor: BwrapExecutor, settings: CommandSettings, options: ExecOptions, signal: AbortSignal | undefined): Promise<ExecResult> {
    const started = performance.now();
    const request: Parameters<CommandChannel['exec']>[0] = { argv: settings.argv, cwd: settings.cwd, env: settings.environment, timeout_ms: settings.timeoutMs };
    if (options.stdin !== undefined) request.stdin_b64 = Buffer.from(options.stdin).toString('base64');
    const execOptions: ChannelExecOptions = { outputCapBytes: settings.outputCapBytes, logCapBytes: settings.logCapBytes, commandText: settings.commandText };
    if (options.onStdout !== undefined) execOptions.onStdout = options.onStdout;
    if (options.onStderr !== undefined) execOptions.onStderr = options.onStderr;
    if (settings.logPath !== undefined) execOptions.logPath = settings.logPath;
    if (signal !== undefined) execOptions.signal = signal;
    try {
      return await execOnChannel(executor.channel, request, execOptions);
    } catch (error) {
      if (this.isDisposed) throw this.disposedError();
      // Its executor was stopped by a network change before it answered: ended like the commands it ran.
      if (executor.wasStoppedWhileAlive) return abortedResult(Math.round(performance.now() - started));
      throw error;
    }
  }

  private async runPerCommand(launcher: BwrapLauncher, settings: CommandSettings, options: ExecOptions, signal: AbortSignal | undefined): Promise<ExecResult> {
    const environmentArguments: string[] = [];
    for (const [name, value] of Object.entries({ ...this.baseEnvironment, ...settings.environment })) environmentArguments.push('--setenv', name, value);
    const { killedProcessCount: _killed, ...result } = await launcher.run({
      bwrapArguments: [...this.networkArguments(), '--chdir', settings.cwd, ...environmentArguments],
      argv: settings.argv,
      stdin: options.stdin,
      timeoutMs: settings.timeoutMs,
      outputCapBytes: settings.outputCapBytes,
      onStdout: options.onStdout,
      onStderr: options.onStderr,
      logPath: settings.logPath,
      logCapBytes: settings.logCapBytes,
      commandText: settings.commandText,
      signal,
    });
    return result;
  }

  /** The executor for the current network mode (started, or restarted when it died), or the launcher on the per-command path. */
  private async commandRunner(): Promise<CommandRunner> {
    for (let attempt = 1; ; attempt++) {
      this.assertUsable();
      if (this.path === 'per-command') return { launcher: await this.usableLauncher() };
      this.executor ??= this.startExecutor();
      const pending = this.executor;
      let executor: BwrapExecutor | undefined;
      try {
        executor = await pending;
      } catch (error) {
        if (this.executor === pending) this.executor = undefined;
        if (this.isDisposed) throw this.disposedError();
        throw error;
      }
      // Undefined: the rootfs has no python3, the path is now per-command.
      if (executor === undefined) continue;
      if (executor.isAlive) return { executor };
      // It died (a command killed it; the call in flight failed), or a network change replaced it meanwhile.
      if (this.executor === pending) {
        this.executor = undefined;
        void this.retire(executor).catch(() => undefined);
        this.options.onDebug?.(`bwrap sandbox ${this.id}: the executor exited; starting a new one`);
      }
      if (attempt >= 3) throw new SandboxError('internal', 'the sandbox executor keeps exiting right after it starts');
    }
  }

  /** Starts an executor for the current network mode; undefined (and the per-command path from now on) when the rootfs has no python3. */
  private async startExecutor(): Promise<BwrapExecutor | undefined> {
    this.assertUsable();
    const environmentArguments: string[] = [];
    for (const [name, value] of Object.entries(this.baseEnvironment)) environmentArguments.push('--setenv', name, value);
    const executor = BwrapExecutor.launch({
      start: this.start,
      bwrapArguments: [...this.networkArguments(), '--chdir', this.workdir, ...environmentArguments],
      workdir: this.workdir,
    });
    this.liveExecutors.add(executor);
    let state: 'ready' | 'python-missing';
    try {
      state = await executor.waitUntilReady(EXECUTOR_READY_TIMEOUT_MS);
    } catch (error) {
      this.liveExecutors.delete(executor);
      throw error;
    }
    if (state === 'ready') return executor;
    this.liveExecutors.delete(executor);
    this.path = 'per-command';
    this.options.onDebug?.(`bwrap sandbox ${this.id}: ${this.rootfs} has no python3; starting one bwrap per command (slower)`);
    return undefined;
  }

  /** The per-command launcher; a launcher that died (killed from outside, or by the OOM killer) is replaced. */
  private usableLauncher(): Promise<BwrapLauncher> {
    if (this.launcher?.isAlive === true) return Promise.resolve(this.launcher);
    this.launcherStart ??= (async () => {
      this.assertUsable();
      const launcher = await BwrapLauncher.start({ controlDir: this.controlDir, start: this.start });
      this.launcher = launcher;
      return launcher;
    })().finally(() => {
      this.launcherStart = undefined;
    });
    return this.launcherStart;
  }

  private async applyNetwork(hasNetwork: boolean): Promise<void> {
    if (hasNetwork === this.hasNetwork) return;
    this.assertUsable();
    this.hasNetwork = hasNetwork;
    // Commands running now were started with the old mode: they end (137, abort).
    const endedCommands = [...this.commandsOnCurrentNetwork];
    this.commandsOnCurrentNetwork = new Set();
    const killer = this.commandKiller;
    this.commandKiller = newCommandKiller();
    killer.abort();
    if (this.path === 'executor') {
      const previous = this.executor;
      // The old namespace (and every process started in it) must be gone before the new one starts.
      const retired = (async () => {
        const executor = await previous?.catch(() => undefined);
        if (executor !== undefined) await this.retire(executor);
      })();
      const next = retired.then(() => this.startExecutor());
      // Reported below, once the old commands are settled.
      next.catch(() => undefined);
      this.executor = next;
      await retired;
      await Promise.allSettled(endedCommands);
      try {
        await next;
      } catch (error) {
        if (this.executor === next) this.executor = undefined;
        throw error;
      }
      return;
    }
    await Promise.allSettled(endedCommands);
  }

  private networkArguments(): readonly string[] {
    return this.hasNetwork ? this.networkedArguments : this.isolatedArguments;
  }

  private async retire(executor: BwrapExecutor): Promise<void> {
    await executor.stop();
    this.liveExecutors.delete(executor);
  }

  protected assertUsable(): void {
    if (this.isDisposed) throw this.disposedError();
  }

  private disposedError(): SandboxError {
    return new SandboxError('sandbox_disposed', `sandbox ${this.id} was disposed`, { subject: this.id });
  }
}

function newCommandKiller(): AbortController {
  const killer = new AbortController();
  // Every running command listens to it; many may run at once.
  setMaxListeners(0, killer.signal);
  return killer;
}

/** A command ended by us before it could report: as if killed at once. */
function abortedResult(durationMs: number): ExecResult {
  return { ...emptyResult(EXIT_CODE_KILLED), killedBy: 'abort', signal: 9, durationMs };
}

function withoutCgroups(): LimitsEnforcement {
  return { memory: 'none', pids: 'none', cpus: 'none', notes: ['cgroups not used (shouldUseCgroups: false): pids and cpus limits are not enforced'] };
}


function checkLimits(spec: SandboxSpec): { memoryMb: number; pids: number; cpus: number } {
  const memoryMb = positiveNumber(spec.limits?.memoryMb, BWRAP_DEFAULT_MEMORY_MB, 'SandboxSpec.limits.memoryMb');
  const pids = positiveNumber(spec.limits?.pids, BWRAP_DEFAULT_PIDS, 'SandboxSpec.limits.pids');
  if (!Number.isInteger(pids)) throw new SandboxError('invalid_spec', `SandboxSpec.limits.pids: expected a whole number, found ${pids}`);
  const cpus = positiveNumber(spec.limits?.cpus, Math.min(BWRAP_DEFAULT_CPUS, availableParallelism()), 'SandboxSpec.limits.cpus');
  return { memoryMb, pids, cpus };
}

function positiveNumber(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new SandboxError('invalid_spec', `${field}: expected a positive number, found ${JSON.stringify(value)}`);
  }
  return value;
}

async function resolveRootfs(spec: SandboxSpec, options: BwrapSandboxOptions): Promise<string> {
  if (spec.rootfs !== undefined) {
    if (typeof spec.rootfs !== 'string' || spec.rootfs === '') {
      throw new SandboxError('invalid_spec', `SandboxSpec.rootfs: expected a folder path, found ${JSON.stringify(spec.rootfs)}`);
    }
    return spec.rootfs;
  }
  if (spec.image !== undefined) return ensureRootfs({ image: spec.image, ...(options.docker ? { docker: options.docker } : {}) });
  throw new SandboxError(
    'invalid_spec',
    'SandboxSpec.rootfs: the bwrap backend needs a root file system folder; set "rootfs", or "image" to export one with ensureRootfs',
  );
}

async function assertRootfsFolder(rootfs: string, workdir: string, workdirField: string, user: SandboxUser): Promise<void> {
  const isFolder = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isDirectory() === true;
  const rootStats = await stat(rootfs).catch(() => undefined);
  if (rootStats?.isDirectory() !== true) {
    throw new SandboxError('invalid_spec', `SandboxSpec.rootfs: folder "${rootfs}" does not exist`, { subject: rootfs });
  }
  // The sandbox's user (not root on the host) must be able to read and enter `/` itself.
  const readBits = rootStats.uid === user.uid ? 0o500 : rootStats.gid === user.gid ? 0o050 : 0o005;
  if (user.isDropped && (rootStats.mode & readBits) !== readBits) {
    throw new SandboxError(
      'invalid_spec',
      `SandboxSpec.rootfs: uid ${user.uid} (the sandbox's user) cannot read the root folder "${rootfs}" (mode ${(rootStats.mode & 0o7777).toString(8)}); make it readable by everyone (chmod 755), as / is`,
      { subject: rootfs },
    );
  }
  if ((await stat(join(rootfs, 'bin', 'sh')).catch(() => undefined)) === undefined) {
    throw new SandboxError('invalid_spec', `SandboxSpec.rootfs: "${rootfs}" has no /bin/sh; is it a root file system?`, { subject: rootfs });
  }
  // The root is mounted read-only, so bwrap cannot create a missing mount point.
  if (!(await isFolder(join(rootfs, workdir)))) {
    throw new SandboxError(
      'invalid_spec',
      `${workdirField}: "${workdir}" is not a folder in the root file system ${rootfs}; use a folder that exists there, such as /workspace`,
      { subject: workdir },
    );
  }
}

/**
 * Per-sandbox writable folders bound over the read-only root: /tmp, HOME and /usr/local
 * (seeded from the image, so `pip install` as root works), each only when the image has it.
 * They belong to the sandbox's user, who is root inside.
 */
async function prepareStateFolders(rootfs: string, stateDir: string, user: SandboxUser): Promise<Bind[]> {
  const binds: Bind[] = [];
  const targets: { inside: string; name: string; isSeeded: boolean }[] = [
    { inside: '/tmp', name: 'tmp', isSeeded: false },
    { inside: SANDBOX_HOME, name: 'home', isSeeded: true },
    { inside: '/usr/local', name: 'usr-local', isSeeded: true },
  ];
  for (const target of targets) {
    const imageFolder = join(rootfs, target.inside);
    const stats = await stat(imageFolder).catch(() => undefined);
    if (stats?.isDirectory() !== true) continue;
    const hostFolder = join(stateDir, target.name);
    if (target.isSeeded) {
      // A rootfs extracted by another user may hide /root from us: start that one empty.
      await cp(imageFolder, hostFolder, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true }).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EACCES' && error.code !== 'EPERM') throw error;
        await rm(hostFolder, { recursive: true, force: true });
        await mkdir(hostFolder);
      });
    } else {
      await mkdir(hostFolder);
    }
    await chmod(hostFolder, target.inside === '/tmp' ? 0o1777 : stats.mode & 0o7777);
    binds.push({ source: hostFolder, destination: target.inside, isReadOnly: false });
  }
  if (user.isDropped) await giveTreeTo(binds.map((bind) => bind.source), user);
  return binds;
}

/** With network, the host's resolver settings replace the image's (Docker's empty stubs). */
async function hostNameResolution(rootfs: string): Promise<Bind[]> {
  const binds: Bind[] = [];
  for (const file of ['/etc/resolv.conf', '/etc/hosts']) {
    const hasBoth = (await stat(file).catch(() => undefined))?.isFile() && (await stat(join(rootfs, file)).catch(() => undefined))?.isFile();
    if (hasBoth === true) binds.push({ source: file, destination: file, isReadOnly: true });
  }
  return binds;
}

/**
 * The state folder must be reachable by the sandbox's user (its /tmp, HOME and /usr/local
 * and the staging points live there): searchable, not listable, by anyone.
 */
async function makeReachable(stateDir: string, user: SandboxUser): Promise<void> {
  await chmod(stateDir, 0o711);
  if (!(await isReachableBy(stateDir, user))) {
    throw new SandboxError(
      'backend_unavailable',
      `the bwrap backend cannot use the temporary folder ${dirname(stateDir)}: uid ${user.uid} (the sandbox's user) cannot reach it; set TMPDIR to a folder every user can traverse, such as /tmp`,
    );
  }
}

/**
 * Bind sources the sandbox's user cannot reach (the default rootfs under root's 0700 home,
 * a mountWorkspace below a private folder): each gets a staging point in the state folder,
 * which the starter bind-mounts it onto (in a mount namespace of its own) before bwrap runs.
 */
async function stageUnreachable(binds: readonly Bind[], stateDir: string, user: SandboxUser): Promise<StagedMount[]> {
  const staged: StagedMount[] = [];
  for (const bind of binds) {
    const source = await realpath(bind.source);
    if (staged.some((mount) => mount.source === bind.source) || (await isReachableBy(source, user))) continue;
    const stagingFolder = join(stateDir, 'mounts');
    await mkdir(stagingFolder, { recursive: true, mode: 0o711 });
    const target = join(stagingFolder, String(staged.length));
    if ((await stat(source)).isDirectory()) await mkdir(target);
    else await writeFile(target, '');
    staged.push({ source: bind.source, target });
  }
  return staged;
}

/** Where bwrap finds `source`: its staging point when it was staged. */
function stagedSource(source: string, stagedMounts: readonly StagedMount[]): string {
  return stagedMounts.find((mount) => mount.source === source)?.target ?? source;
}
