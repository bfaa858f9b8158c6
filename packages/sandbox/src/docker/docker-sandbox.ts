import { setMaxListeners } from 'node:events';
import { lstat, mkdir, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable, type Duplex } from 'node:stream';
import type Dockerode from 'dockerode';
import { ulid } from 'ulid';
import { SandboxError } from '../contract/sandbox-error.js';
import { ExecutorClient } from '../core/executor/executor-client.js';
import { executorArgv, executorScriptLine } from '../core/executor/executor-launch.js';
import { checkEnvironment, combineSignals, commandArgv, execSettings } from '../core/exec-settings.js';
import { resolveWorkspacePath } from '../core/workspace/path-safety.js';
import { EXIT_CODE_KILLED, type ExecOptions, type ExecResult, type FileEntry, type Sandbox, type SandboxSnapshot, type SandboxSpec } from '../contract/sandbox.js';
import type { CommandChannel } from '../core/executor/command-channel.js';
import { execOnChannel, type ChannelExecOptions } from '../core/executor/channel-exec.js';
import { DEFAULT_DOCKER_IMAGE, NO_NETWORK, planContainer, SANDBOX_NETWORK, type ContainerPlan, type ContainerPlanInput } from './container-config.js';
import { defaultEngine } from '../core/engine/default-engine.js';
import { engineMessage, toSandboxError } from './docker-errors.js';
import { engineEndpoint, type EngineEndpoint } from './engine-endpoint.js';
import { EngineExecChannel } from './engine-exec-channel.js';
import { startAttachedExec } from './engine-exec.js';
import { extractTarToHost } from './extract-to-host.js';
import { explainGvisorSandboxEnd } from './gvisor-sandbox-end.js';
import { resolveRuntime } from './container-runtime.js';
import { buildContainerLabels, LABEL_NETWORK_HOLDER } from '../core/engine/labels.js';
import { attachMainProcess, EXECUTOR_EXITED_LINE, NO_EXECUTOR_LINE } from './main-process.js';
import type { NetworkHolder, NetworkHolderPool } from './network-holder-pool.js';
import { removeContainer } from './remove-container.js';
import { ENGINE_CALL_TIMEOUT_MS, withEngineDeadline } from './engine-deadline.js';
import { commitForRuntimeMove, removeMoveImage } from './runtime-move-image.js';
import { networklessHostsFile } from './networkless-hosts-file.js';
import { commitSnapshot } from './snapshot-image.js';
import { trackSandbox, untrackSandbox, type ExitCleanup, type LiveSandbox } from '../core/live-sandboxes.js';
import { containerExitCleanup } from './remove-at-exit.js';
import { packTar, type TarOwner, type TarPart } from './tar-archive.js';

export interface DockerSandboxOptions {
  /** Engine client; default: one shared per process (DOCKER_HOST or /var/run/docker.sock). */
  docker?: Dockerode;
  /** Debug-level notes: the no-python3 fallback, executor restarts. Default: dropped. */
  onDebug?: (message: string) => void;
  /** How long the executor may take to say it is ready. Default 30 s. */
  executorReadyTimeoutMs?: number;
  /** How long the engine may take to create or to start the container before it counts as stuck (engine_unavailable). Default ENGINE_CALL_TIMEOUT_MS, 120 s. */
  engineCallTimeoutMs?: number;
  /**
   * Started network holders to join (faster start: the engine skips making a network
   * namespace); with none ready, the sandbox makes its own. Must use the same engine.
   */
  networkHolders?: NetworkHolderPool;
}

/** How commands reach the container. */
export type DockerCommandPath = 'executor' | 'engine-exec';

/** Largest workspace archive a hand-out sends through the executor (in one request line) rather than the engine's archive API. */
const EXECUTOR_EXTRACT_MAX_BYTES = 4 * 1024 * 1024;

/** What `docker info` says that sandboxes need, read once per engine client. */
interface EngineFacts {
  cpus: number | undefined;
  /** The runtime a container without one runs under (`runc` unless daemon.json says otherwise). */
  defaultRuntime: string | undefined;
}
const factsByEngine = new WeakMap<Dockerode, Promise<EngineFacts>>();
/** Engines that could not mount the networkless hosts file (see `open`): their snapshots' sandboxes start on `none`. */
const enginesNotSeeingHostFiles = new WeakSet<Dockerode>();

/**
 * A hardened Docker container as a Sandbox. Commands and file operations go through
 * one long-lived executor process inside the container (a fork+exec per command, no
 * `docker exec` round trip), or one Engine API exec each when the image has no python3.
 * The container is labelled, tracked process-wide and removed by `dispose()`, on
 * SIGINT/SIGTERM (when the host application does not handle them) and at exit.
 */
export class DockerSandbox implements Sandbox, LiveSandbox {
  readonly backend = 'docker' as const;
  readonly workdir: string;
  readonly image: string;
  readonly endpoint: EngineEndpoint;
  private readonly docker: Dockerode;
  /** The current container: a sandbox that moves to its runtime (see `moveToDeferredRuntime`) gets a new one. */
  private container: Dockerode.Container;
  private plan: ContainerPlan;
  /** Replaced once, by `claim`: a warm sandbox learns its attempt's settings at hand-out. */
  private spec: SandboxSpec;
  private readonly options: DockerSandboxOptions;
  /** The joined network holder, which owns the network namespace; none on the cold path. */
  private readonly networkHolder: NetworkHolder | undefined;
  private readonly disposer = new AbortController();
  private channel: CommandChannel | undefined;
  private channelRestart: Promise<CommandChannel> | undefined;
  private path: DockerCommandPath = 'executor';
  private isNetworkConnected: boolean;
  /** Still attached to the engine's `none` network (created without network, never connected since). */
  private isOnNoNetwork: boolean;
  private networkChange: Promise<void> = Promise.resolve();
  private commandCounter = 0;
  private disposing: Promise<void> | undefined;
  /** What the container plans are made of; a runtime move makes a new plan from it. */
  private planInput: PlanInput;
  /** The runtime, registered without network, this sandbox moves to when its network is cut. */
  private deferredRuntime: string | undefined;
  /** The engine's default runtime (`docker info`), the one a container without a runtime runs under. */
  private engineDefaultRuntime: string | undefined;
  /** The runtime the sandbox runs under that has no network at all (setNetwork(true) is refused). */
  private networklessRuntime: string | undefined;
  /** The image committed from the setup container for the move; removed by dispose. */
  private moveImage: string | undefined;
  /** Ends the commands still running when the runtime move starts (137, `killedBy: 'abort'`). */
  private runtimeMoveAborter: AbortController | undefined;
  /** Commands running under the setup container, which the move waits for once it ended them. */
  private readonly commandsBeforeMove = new Set<Promise<unknown>>();
  /** Set by `createWarm`, cleared by `claim`: a warm sandbox is handed out once, never again. */
  private isAwaitingClaim = false;
  /** Set when the container ended under gVisor (a limit reached): every later call fails with it. */
  private endedError: SandboxError | undefined;
  private hasBeenClaimed = false;

  private constructor(
    docker: Dockerode,
    container: Dockerode.Container,
    plan: ContainerPlan,
    spec: SandboxSpec,
    options: DockerSandboxOptions,
    endpoint: EngineEndpoint,
    networkHolder: NetworkHolder | undefined,
  ) {
    this.docker = docker;
    this.container = container;
    this.networkHolder = networkHolder;
    this.isNetworkConnected = spec.hasNetwork === true;
    // A holder is connected to the bridge before the sandbox starts (see create).
    this.isOnNoNetwork = !this.isNetworkConnected;
    this.planInput = { spec };
    this.workdir = plan.workdir;
    this.image = plan.image;
    this.plan = plan;
    this.spec = spec;
    this.options = options;
    this.endpoint = endpoint;
    // Every running command listens to it; many may run at once.
    setMaxListeners(0, this.disposer.signal);
  }

  /** The container id (a new one after a runtime move). */
  get id(): string {
    return this.container.id;
  }

  get containerId(): string {
    return this.container.id;
  }

  get containerName(): string {
    return String(this.plan.createOptions.name);
  }

  /** The temporary image of this sandbox's runtime move, while it exists (the process-wide exit sweep removes it too). */
  get runtimeMoveImage(): string | undefined {
    return this.moveImage;
  }

  /** The live-sandbox tracker's last cleanup: the container (and its move image) removed from a fresh process. */
  exitCleanup(): ExitCleanup {
    return containerExitCleanup({ id: this.containerId, ...(this.moveImage === undefined ? {} : { image: this.moveImage }), ...this.endpoint });
  }

  /** The OCI runtime the container runs under now; undefined: the engine's default. */
  get runtime(): string | undefined {
    return this.plan.runtime;
  }

  /** The OCI runtime the container runs under now, the engine's default by its name (`runc`); undefined only when the engine did not say. */
  get runtimeName(): string | undefined {
    return this.plan.runtime ?? this.engineDefaultRuntime;
  }

  /** Creates and starts the container, fills the workspace, cuts the network unless `hasNetwork`. */
  static create(spec: SandboxSpec = {}, options: DockerSandboxOptions = {}): Promise<DockerSandbox> {
    return DockerSandbox.open(spec, options, { isNetworkedNever: false });
  }

  /**
   * `create`, and with `isNetworkedNever` (a snapshot's sandbox without `hasNetwork`, which nothing
   * connects later) the engine makes no network for it, when it can (see
   * `ContainerPlanInput.engineNetworklessHostsFile`); `setNetwork(true)` is then refused.
   */
  private static async open(spec: SandboxSpec, options: DockerSandboxOptions, { isNetworkedNever }: { isNetworkedNever: boolean }): Promise<DockerSandbox> {
    checkEnvironment(spec.env, 'SandboxSpec.env');
    const docker = options.docker ?? options.networkHolders?.engine ?? defaultEngine();
    if (options.networkHolders !== undefined && options.networkHolders.engine !== docker) {
      throw new SandboxError('invalid_spec', 'DockerSandboxOptions.networkHolders: the pool uses another engine client than DockerSandboxOptions.docker');
    }
    const user = spec.mountWorkspace === undefined ? undefined : await mountOwner(spec.mountWorkspace);
    if (spec.hostWorkspace !== undefined) await requireHostFolder(spec.hostWorkspace, 'SandboxSpec.hostWorkspace');
    if (spec.logDir !== undefined) await mkdir(spec.logDir, { recursive: true });
    // Needed for the CPU limit; otherwise only to name the default runtime, which no create waits on failing.
    const engine = spec.limits?.cpus === undefined ? await engineFacts(docker) : await Promise.resolve().then(() => engineFacts(docker)).catch(() => undefined);
    const engineCpus = spec.limits?.cpus === undefined ? engine?.cpus : undefined;
    const engineDefaultRuntime = engine?.defaultRuntime;
    const planInput: PlanInput = { spec };
    if (engineCpus !== undefined) planInput.engineCpus = engineCpus;
    if (user !== undefined) planInput.user = user;
    const canSkipEngineNetwork = isNetworkedNever && spec.hasNetwork !== true && spec.runtime === undefined && !enginesNotSeeingHostFiles.has(docker);
    if (canSkipEngineNetwork && (await engineEndpoint(docker)).socketPath !== undefined) planInput.engineNetworklessHostsFile = networklessHostsFile();
    // Checks the spec before a holder is taken.
    planContainer({ ...planInput, name: 'agentbench-check', labels: {} });
    const networklessRuntime = await DockerSandbox.networklessRuntimeOf(docker, spec);
    // Setup with network runs under the default runtime; the network cut moves the sandbox.
    if (networklessRuntime !== undefined && spec.hasNetwork === true) planInput.isRuntimeDeferred = true;
    // A holder's namespace is made by runc: a container of another runtime cannot join it.
    const holder = spec.runtime === undefined && planInput.engineNetworklessHostsFile === undefined ? options.networkHolders?.take(typeof spec.image === 'string' ? spec.image : DEFAULT_DOCKER_IMAGE) : undefined;
    const hostsFile = planInput.engineNetworklessHostsFile;
    if (hostsFile !== undefined) {
      try {
        return await DockerSandbox.start(docker, planInput, options, undefined, networklessRuntime, engineDefaultRuntime);
      } catch (error) {
        // A local socket to an engine in another mount namespace (ab in a container beside the engine), or a
        // temporary folder cleaned under a long-lived process: the engine does not see the file. Start the
        // sandbox on `none` as any other, and ask this engine for no more such mounts.
        if (!(error instanceof Error && error.message.includes(hostsFile))) throw error;
        enginesNotSeeingHostFiles.add(docker);
        options.onDebug?.(`docker sandbox: the engine cannot mount ${hostsFile} (${error.message}); starting on the engine's none network instead`);
        const { engineNetworklessHostsFile: _unseen, ...onNone } = planInput;
        return DockerSandbox.start(docker, onNone, options, undefined, networklessRuntime, engineDefaultRuntime);
      }
    }
    if (holder === undefined) return DockerSandbox.start(docker, planInput, options, undefined, networklessRuntime, engineDefaultRuntime);
    try {
      return await DockerSandbox.start(docker, planInput, options, holder, networklessRuntime, engineDefaultRuntime);
    } catch (error) {
      // The pool only makes starts faster: a holder that is gone (removed from outside) never fails a create.
      if (await isRunning(docker, holder.containerId)) throw error;
      options.onDebug?.(`docker sandbox: network holder ${holder.containerName} is gone; starting without one`);
      return DockerSandbox.start(docker, planInput, options, undefined, networklessRuntime, engineDefaultRuntime);
    }
  }

  /** The spec's runtime when the engine runs it without network; a runtime the engine lacks fails here, before any container exists. */
  private static async networklessRuntimeOf(docker: Dockerode, spec: SandboxSpec): Promise<string | undefined> {
    if (spec.runtime === undefined) return undefined;
    const profile = await resolveRuntime(docker, spec.runtime);
    return profile.isNetworkless ? profile.name : undefined;
  }

  /** Creates the container (joining `holder`'s network namespace when given) and starts the executor in it. */
  private static async start(
    docker: Dockerode,
    planInput: PlanInput,
    options: DockerSandboxOptions,
    holder: NetworkHolder | undefined,
    networklessRuntime?: string,
    engineDefaultRuntime?: string,
  ): Promise<DockerSandbox> {
    const { spec } = planInput;
    const labels = buildContainerLabels(spec.labels);
    if (holder !== undefined) labels[LABEL_NETWORK_HOLDER] = holder.containerName;
    const plan = planContainer({
      ...planInput,
      name: `agentbench-${ulid().toLowerCase()}`,
      labels,
      ...(holder === undefined ? {} : { networkHolderId: holder.containerId }),
    });
    let container: Dockerode.Container;
    try {
      // The holder joins the bridge while the container is created; both must succeed.
      const [created, connected] = await Promise.allSettled([
        withEngineDeadline(`create a container from ${plan.image}`, options.engineCallTimeoutMs ?? ENGINE_CALL_TIMEOUT_MS, (abortSignal) => docker.createContainer({ ...plan.createOptions, abortSignal })),
        holder !== undefined && spec.hasNetwork === true ? connectToBridge(docker, holder) : undefined,
      ]);
      if (created.status === 'rejected') throw created.reason;
      container = created.value;
      if (connected.status === 'rejected') {
        await container.remove({ force: true }).catch(() => undefined);
        throw connected.reason;
      }
    } catch (error) {
      await holder?.dispose().catch(() => undefined);
      throw toSandboxError(docker, error, { action: `create a container from ${plan.image}`, image: plan.image, ...runtimeContext(plan) });
    }
    const sandbox = new DockerSandbox(docker, container, plan, spec, options, await engineEndpoint(docker), holder);
    sandbox.adoptRuntimePlan(planInput, networklessRuntime);
    sandbox.engineDefaultRuntime = engineDefaultRuntime;
    trackSandbox(sandbox);
    try {
      await sandbox.initialize();
    } catch (error) {
      await sandbox.dispose().catch(() => undefined);
      throw error;
    }
    return sandbox;
  }

  /**
   * A started sandbox with its executor ready and an empty workspace, for a pool (see
   * `SandboxPool`): nothing runs in it but the executor's readiness check until `claim`.
   * `warmSpec` holds only what cannot change after the start (image, workdir, limits, network,
   * the mounted folder); `claim` brings the rest.
   */
  static async createWarm(warmSpec: SandboxSpec, options: DockerSandboxOptions = {}): Promise<DockerSandbox> {
    const handOutFields = (['env', 'files', 'hostWorkspace', 'logDir'] as const).filter((field) => warmSpec[field] !== undefined);
    if (handOutFields.length > 0) {
      throw new SandboxError('invalid_spec', `DockerSandbox.createWarm: ${handOutFields.join(', ')} belong to the hand-out (claim), not to a warm sandbox`);
    }
    const sandbox = await DockerSandbox.create(warmSpec, options);
    sandbox.isAwaitingClaim = true;
    return sandbox;
  }

  /**
   * Hands a warm sandbox out: the attempt's settings (env, timeouts, output caps, log folder) take
   * effect and its workspace (`hostWorkspace`, `files`) is put in, in one archive. Only once: a
   * sandbox that was claimed (or was never warm) is refused, so a used sandbox is never handed out again.
   */
  async claim(handOut: SandboxSpec): Promise<void> {
    this.assertUsable();
    if (!this.isAwaitingClaim) {
      throw new SandboxError('invalid_spec', `docker sandbox ${this.containerName} ${this.hasBeenClaimed ? 'was already handed out' : 'was not created warm'}: it cannot be claimed`, {
        subject: this.containerId,
      });
    }
    this.isAwaitingClaim = false;
    this.hasBeenClaimed = true;
    checkEnvironment(handOut.env, 'SandboxSpec.env');
    if (handOut.hostWorkspace !== undefined) await requireHostFolder(handOut.hostWorkspace, 'SandboxSpec.hostWorkspace');
    if (handOut.logDir !== undefined) await mkdir(handOut.logDir, { recursive: true });
    const { env, files, hostWorkspace, logDir, defaultTimeoutSec, defaultOutputCapBytes, logCapBytes } = handOut;
    this.spec = { ...this.spec, ...definedFields({ env, files, hostWorkspace, logDir, defaultTimeoutSec, defaultOutputCapBytes, logCapBytes }) };
    if (hostWorkspace !== undefined || files !== undefined) await this.fillWorkspace(await (await this.usableChannel()).commandUser(), { isExtractedByExecutor: true });
  }

  /** True from `createWarm` until `claim`. */
  get isWarm(): boolean {
    return this.isAwaitingClaim;
  }

  /** `executor` (fast path) or `engine-exec` (the image has no python3). */
  get commandPath(): DockerCommandPath {
    return this.path;
  }

  get hasNetwork(): boolean {
    return this.isNetworkConnected;
  }

  get isDisposed(): boolean {
    return this.disposing !== undefined;
  }

  async exec(command: string | string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.assertUsable();
    const argv = commandArgv(command);
    const commandEnvironment = checkEnvironment(options.env, 'ExecOptions.env');
    // A claimed sandbox's container started without the spec's env: each command gets it instead.
    const environment = this.hasBeenClaimed && this.spec.env !== undefined ? { ...this.spec.env, ...commandEnvironment } : commandEnvironment;
    const cwd = resolveWorkspacePath(this.workdir, options.cwd ?? '.');
    const { timeoutMs: timeout, outputCapBytes: cap, logPath, logCapBytes, commandText } = execSettings(command, this.spec, options, this.containerName, this.commandCounter + 1);
    this.commandCounter += 1;
    if (options.signal?.aborted === true) {
      return { exitCode: EXIT_CODE_KILLED, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 0, killedBy: 'abort', signal: 9 };
    }
    const channel = await this.usableChannel();
    const request: Parameters<CommandChannel['exec']>[0] = { argv, cwd, env: environment, timeout_ms: timeout };
    if (options.stdin !== undefined) request.stdin_b64 = Buffer.from(options.stdin).toString('base64');
    const execOptions: ChannelExecOptions = { outputCapBytes: cap, logCapBytes, commandText };
    if (options.onStdout !== undefined) execOptions.onStdout = options.onStdout;
    if (options.onStderr !== undefined) execOptions.onStderr = options.onStderr;
    if (logPath !== undefined) execOptions.logPath = logPath;
    const signal = combineSignals([options.signal, this.disposer.signal, this.runtimeMoveAborter?.signal]);
    if (signal !== undefined) execOptions.signal = signal;
    try {
      return await this.settledBeforeRuntimeMove(execOnChannel(channel, request, execOptions));
    } catch (error) {
      if (this.isDisposed && !SandboxError.isInstance(error)) throw this.disposedError();
      throw await this.explainEnd(error);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    this.assertUsable();
    const absolute = resolveWorkspacePath(this.workdir, path);
    return (await this.usableChannel()).readFile(absolute);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.assertUsable();
    const absolute = resolveWorkspacePath(this.workdir, path);
    if (absolute === this.workdir) throw new SandboxError('invalid_spec', `writeFile: "${path}" is the workspace folder itself, not a file`, { subject: path });
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await (await this.usableChannel()).writeFile(absolute, bytes);
  }

  async listFiles(path = '.', options: { recursive?: boolean } = {}): Promise<FileEntry[]> {
    this.assertUsable();
    const absolute = resolveWorkspacePath(this.workdir, path);
    return (await this.usableChannel()).listFiles(absolute, options.recursive === true);
  }

  /**
   * Copies a host file or folder to `sandboxPath` through the archive API: a folder's
   * contents are merged into the sandbox folder, a file replaces the sandbox file.
   */
  async copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    this.assertUsable();
    const absolute = resolveWorkspacePath(this.workdir, sandboxPath);
    let hostStats;
    try {
      hostStats = await lstat(hostPath);
    } catch {
      throw new SandboxError('file_not_found', `copyIn: host path "${hostPath}" does not exist`, { subject: hostPath });
    }
    const channel = await this.usableChannel();
    if (hostStats.isDirectory()) {
      const target = await channel.makeDirectory(absolute);
      await this.putArchive(packTar([{ hostPath, rootName: '.' }], await channel.commandUser()), target, 'copyIn');
      return;
    }
    if (absolute === this.workdir) throw new SandboxError('not_a_directory', `copyIn: cannot replace the workspace folder with the file "${hostPath}"`, { subject: sandboxPath });
    // The real path of the target itself is checked too: a link to outside is refused.
    const status = await channel.stat(absolute);
    if (status.exists && status.type === 'directory') {
      throw new SandboxError('not_a_directory', `copyIn: "${sandboxPath}" is a folder in the sandbox; "${hostPath}" is a file`, { subject: sandboxPath });
    }
    const parent = await channel.makeDirectory(posix.dirname(absolute));
    await this.putArchive(packTar([{ hostPath, rootName: posix.basename(absolute) }], await channel.commandUser()), parent, 'copyIn');
  }

  /** Copies a sandbox file or folder out to `hostPath` (a folder lands as `hostPath` itself). */
  async copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    this.assertUsable();
    const absolute = resolveWorkspacePath(this.workdir, sandboxPath);
    const status = await (await this.usableChannel()).stat(absolute);
    if (!status.exists) throw new SandboxError('file_not_found', `copyOut: no file or folder "${sandboxPath}" in the sandbox`, { subject: sandboxPath });
    let archive: NodeJS.ReadableStream;
    try {
      archive = await this.container.getArchive({ path: status.realPath });
    } catch (error) {
      throw toSandboxError(this.docker, error, { action: `read ${sandboxPath} from the sandbox` });
    }
    await extractTarToHost(archive as AsyncIterable<Buffer>, { archiveRoot: posix.basename(status.realPath), hostPath });
  }

  /** Connects the container to the bridge network, or disconnects it (then only loopback is left). */
  async setNetwork(hasNetwork: boolean): Promise<void> {
    this.assertUsable();
    const change = this.networkChange.catch(() => undefined).then(() => this.applyNetwork(hasNetwork));
    this.networkChange = change;
    await change;
  }

  /** Removes the container (force) and everything in it. Idempotent; safe to call concurrently. */
  dispose(): Promise<void> {
    if (this.disposing !== undefined) return this.disposing;
    this.disposer.abort();
    this.channel?.close(this.disposedError());
    const removal = this.removeContainer().then(
      () => untrackSandbox(this),
      (error: unknown) => {
        // Let a later dispose() (or the exit hook, which still knows it) try again.
        this.disposing = undefined;
        throw error;
      },
    );
    this.disposing = removal;
    return removal;
  }

  /**
   * A commit of the container (see commitSnapshot); none under a runtime other than the engine's
   * default, or one still to move to it: gVisor keeps a container's writes in its own memory,
   * where a commit does not see them.
   */
  async snapshot(): Promise<SandboxSnapshot | undefined> {
    this.assertUsable();
    if (this.plan.runtime !== undefined || this.deferredRuntime !== undefined) return undefined;
    // The same engine; no network holder: a sandbox from a snapshot starts without network.
    const { networkHolders: _holders, ...options } = this.options;
    return commitSnapshot(this.docker, this.container, this.containerName, (spec) => DockerSandbox.open(spec, { ...options, docker: this.docker }, { isNetworkedNever: true }));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private async initialize(): Promise<void> {
    await this.startMainProcess();
    const hasFiles = this.spec.hostWorkspace !== undefined || this.spec.files !== undefined;
    // Copied files belong to the user commands run as, so they can change them.
    if (hasFiles) await this.fillWorkspace(await (await this.usableChannel()).commandUser());
  }

  /** Attaches to the created container, starts it, and waits for its executor (the channel). */
  private async startMainProcess(): Promise<void> {
    let client: ExecutorClient | undefined;
    // The executor is the main process: attach before the start, so nothing it says is missed.
    let stderrTail = '';
    const main = await attachMainProcess(this.docker, this.container, {
      onStdout: (chunk) => client?.receive(chunk),
      onStderr: (chunk) => {
        client?.receiveDiagnostics(chunk);
        // The attach connection outlives the executor (the main process then sleeps): this line says it ended.
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-512);
        if (stderrTail.includes(EXECUTOR_EXITED_LINE) || stderrTail.includes(NO_EXECUTOR_LINE)) client?.handleClose();
      },
    });
    client = this.connectExecutor(main.stream, main.ended);
    try {
      await withEngineDeadline(`start the sandbox container ${this.containerName}`, this.options.engineCallTimeoutMs ?? ENGINE_CALL_TIMEOUT_MS, (abortSignal) => this.container.start({ abortSignal }));
    } catch (error) {
      client.close(new SandboxError('internal', 'the sandbox container did not start'));
      throw toSandboxError(this.docker, error, { action: `start the sandbox container ${this.containerName}`, ...runtimeContext(this.plan) });
    }
    this.channel = await this.awaitExecutor(client, NO_EXECUTOR_LINE);
  }

  /**
   * Puts the spec's files in. `isExtractedByExecutor`: a small archive is unpacked by one `tar -x`
   * through the running executor (tens of ms) instead of the engine's archive API, which under load
   * costs most of a hand-out (measured in bench/pool.bench.mjs); a large one, or an image without
   * python3 or tar, still goes through the engine.
   */
  private async fillWorkspace(owner: TarOwner, options: { isExtractedByExecutor?: boolean } = {}): Promise<void> {
    const files = Object.entries(this.spec.files ?? {}).map(([path, content]) => {
      const absolute = resolveWorkspacePath(this.workdir, path);
      const relative = posix.relative(this.workdir, absolute);
      if (relative === '') throw new SandboxError('invalid_spec', `SandboxSpec.files: "${path}" names the workspace folder itself, not a file`, { subject: path });
      return { path: relative, data: typeof content === 'string' ? Buffer.from(content, 'utf8') : content };
    });
    const parts: TarPart[] = [];
    if (this.spec.hostWorkspace !== undefined) parts.push({ hostPath: this.spec.hostWorkspace, rootName: '.' });
    parts.push({ files });
    let archive: Readable = packTar(parts, owner);
    if (options.isExtractedByExecutor === true && this.path === 'executor') {
      const head = await readUpTo(archive, EXECUTOR_EXTRACT_MAX_BYTES);
      if (head.isComplete && (await this.extractThroughExecutor(head.data))) return;
      archive = head.isComplete ? Readable.from([head.data]) : Readable.from(prepend(head.data, archive));
    }
    await this.putArchive(archive, this.workdir, 'fill the workspace');
  }

  /**
   * Unpacks `archive` into the workspace with the image's tar. False when that did not work (no tar,
   * a tar that refused an entry): the caller then sends the same archive through the engine, which
   * writes every entry again.
   */
  private async extractThroughExecutor(archive: Buffer): Promise<boolean> {
    const channel = await this.usableChannel();
    const result = await execOnChannel(
      channel,
      { argv: ['tar', '-x', '-f', '-', '-C', this.workdir], cwd: this.workdir, env: {}, timeout_ms: 120_000, stdin_b64: archive.toString('base64') },
      { outputCapBytes: 16_384, logCapBytes: 16_384, commandText: `tar -x -C ${this.workdir}` },
    );
    if (result.exitCode === 0) return true;
    this.options.onDebug?.(`docker sandbox ${this.containerName}: tar in the sandbox exited with ${result.exitCode} (${result.stderr.trim().slice(0, 200)}); filling the workspace through the engine instead`);
    return false;
  }

  private async putArchive(archive: Readable, containerPath: string, action: string): Promise<void> {
    try {
      // The engine extracts as root and keeps the owner ids written in the archive.
      await this.container.putArchive(archive, { path: containerPath });
    } catch (error) {
      // Stops reading the host for an archive nobody takes any more.
      archive.destroy();
      throw toSandboxError(this.docker, error, { action: `${action} (write into ${containerPath})` });
    }
  }

  private async applyNetwork(hasNetwork: boolean): Promise<void> {
    if (hasNetwork === this.isNetworkConnected) return;
    if (hasNetwork && this.plan.createOptions.NetworkDisabled === true) {
      throw new SandboxError(
        'invalid_spec',
        `setNetwork(true): docker sandbox ${this.containerName} was started from a snapshot without network, and the engine made no network for it; start it with hasNetwork: true to have network`,
      );
    }
    if (hasNetwork && this.networklessRuntime !== undefined && this.plan.runtime === this.networklessRuntime) {
      throw new SandboxError(
        'invalid_spec',
        `setNetwork(true): docker sandbox ${this.containerName} runs under runtime "${this.plan.runtime}", which the engine runs without network (--network=none); create the sandbox with hasNetwork: true to have network during setup (it runs under the default runtime until the network is cut)`,
        { subject: this.plan.runtime },
      );
    }
    await this.switchNetwork(hasNetwork);
    if (!hasNetwork && this.deferredRuntime !== undefined) await this.moveToDeferredRuntime(this.deferredRuntime);
  }

  private async switchNetwork(hasNetwork: boolean): Promise<void> {
    const network = this.docker.getNetwork(SANDBOX_NETWORK);
    try {
      // The holder, when joined, owns the namespace: its connections are the sandbox's.
      const owner = this.networkHolder?.containerId ?? this.containerId;
      if (hasNetwork && this.isOnNoNetwork) {
        await this.docker.getNetwork(NO_NETWORK).disconnect({ Container: owner, Force: true });
        this.isOnNoNetwork = false;
      }
      if (hasNetwork) await network.connect({ Container: owner });
      else await network.disconnect({ Container: owner, Force: true });
    } catch (error) {
      const message = engineMessage(error);
      // Already in the wanted state.
      if (!(hasNetwork ? /already exists|already connected/i : /is not connected/i).test(message)) {
        throw toSandboxError(this.docker, error, { action: `${hasNetwork ? 'connect' : 'disconnect'} the ${SANDBOX_NETWORK} network` });
      }
    }
    this.isNetworkConnected = hasNetwork;
  }

  /** The current channel, or a restarted executor when it died (the failing call already got an internal error). */
  private async usableChannel(): Promise<CommandChannel> {
    const channel = this.channel;
    if (channel !== undefined && !channel.isClosed) return channel;
    this.assertUsable();
    if (this.endedError !== undefined) throw this.endedError;
    if (this.channelRestart === undefined) {
      this.options.onDebug?.(`docker sandbox ${this.containerName}: the executor exited; starting a new one`);
      this.channelRestart = this.startChannel().finally(() => {
        this.channelRestart = undefined;
      });
    }
    try {
      const restarted = await this.channelRestart;
      this.channel = restarted;
      return restarted;
    } catch (error) {
      if (this.isDisposed) throw this.disposedError();
      throw await this.explainEnd(new SandboxError('internal', `the sandbox executor exited and could not be restarted: ${(error as Error).message}`, { cause: error }));
    }
  }

  /** An executor failure as the caller should see it: under gVisor, a stopped container is the whole sandbox ended. */
  private async explainEnd(error: unknown): Promise<unknown> {
    if (this.endedError !== undefined) return this.endedError;
    if (this.isDisposed || !SandboxError.isInstance(error) || error.kind !== 'internal') return error;
    const facts = { container: this.container, containerName: this.containerName, runtime: this.plan.runtime, memoryMb: this.plan.memoryMb, pids: this.plan.pids };
    this.endedError = await explainGvisorSandboxEnd(facts, error);
    return this.endedError ?? error;
  }

  /** Starts a new executor with an exec (the first one is the main process), or the fallback without python3. */
  private async startChannel(): Promise<CommandChannel> {
    if (this.path === 'engine-exec') return new EngineExecChannel(this.docker, this.container, this.workdir);
    let client: ExecutorClient | undefined;
    const attached = await startAttachedExec(this.docker, this.container, {
      argv: executorArgv(this.workdir),
      workingDir: this.workdir,
      hasStdin: true,
      onStdout: (chunk) => client?.receive(chunk),
      onStderr: (chunk) => client?.receiveDiagnostics(chunk),
    });
    client = this.connectExecutor(attached.stream, attached.ended);
    return this.awaitExecutor(client, 'executable file not found');
  }

  /** An executor client speaking over `stream`; sends the executor its script. */
  private connectExecutor(stream: Duplex, ended: Promise<void>): ExecutorClient {
    const client = new ExecutorClient({
      write: (data) => {
        stream.write(data);
      },
      close: () => {
        stream.end();
        stream.destroy();
      },
    });
    stream.on('error', () => undefined);
    void ended.then(() => client.handleClose());
    stream.write(executorScriptLine());
    return client;
  }

  /** Waits for the executor's hello; without python3 (`missingText` in its start-up output), the fallback channel. */
  private async awaitExecutor(executor: ExecutorClient, missingText: string): Promise<CommandChannel> {
    const readyTimeoutMs = this.options.executorReadyTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SandboxError('internal', `the sandbox executor did not start within ${readyTimeoutMs} ms`)), readyTimeoutMs);
    });
    try {
      await Promise.race([executor.ready, timedOut]);
      return executor;
    } catch (error) {
      executor.close(error as Error);
      if (executor.startupText.includes(missingText) || executor.diagnosticText.includes(missingText)) {
        this.path = 'engine-exec';
        this.options.onDebug?.(
          `docker sandbox ${this.containerName}: image ${this.image} has no python3; running one Engine API exec per command (slower)`,
        );
        return new EngineExecChannel(this.docker, this.container, this.workdir);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async removeContainer(): Promise<void> {
    const removals = [removeContainer(this.docker, this.containerId, `the sandbox container ${this.containerName}`)];
    if (this.networkHolder !== undefined) removals.push(this.networkHolder.dispose());
    const failure = (await Promise.allSettled(removals)).find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
    await this.removeMoveImage();
  }

  /** Records what a runtime move needs: the plan input, and the runtime to move to when setup cut the network. */
  private adoptRuntimePlan(planInput: PlanInput, networklessRuntime: string | undefined): void {
    this.planInput = planInput;
    this.networklessRuntime = networklessRuntime;
    this.deferredRuntime = planInput.isRuntimeDeferred === true ? networklessRuntime : undefined;
    if (this.deferredRuntime !== undefined) {
      this.runtimeMoveAborter = new AbortController();
      setMaxListeners(0, this.runtimeMoveAborter.signal);
    }
  }

  /** Tracks a command of the setup container, so the runtime move can end it and wait for its result. */
  private settledBeforeRuntimeMove<T>(command: Promise<T>): Promise<T> {
    if (this.runtimeMoveAborter === undefined) return command;
    this.commandsBeforeMove.add(command);
    const forget = (): void => {
      this.commandsBeforeMove.delete(command);
    };
    command.then(forget, forget);
    return command;
  }

  /**
   * Moves the sandbox from its setup container (default runtime, network now cut) to a new
   * container under `runtime`: the setup container is committed to a temporary image, and the
   * new container is made from it with the same plan (workspace path and mount, env, limits,
   * labels) and no network. Processes do not move (daemons started in setup are gone), nor does
   * /tmp (a tmpfs). A move that fails disposes of the sandbox: nothing may go on running under a
   * weaker runtime than the one asked for.
   */
  private async moveToDeferredRuntime(runtime: string): Promise<void> {
    this.deferredRuntime = undefined;
    const previous = { containerId: this.containerId, containerName: this.containerName };
    try {
      // Commands still running are ended as by an abort (137): their output so far is kept.
      this.runtimeMoveAborter?.abort();
      this.runtimeMoveAborter = undefined;
      await Promise.allSettled([...this.commandsBeforeMove]);
      this.channel?.close(new SandboxError('internal', `docker sandbox ${previous.containerName} moved to runtime "${runtime}"; commands running then were ended`));
      this.channel = undefined;
      this.moveImage = await commitForRuntimeMove(this.docker, this.container, previous.containerName);
      const plan = planContainer({
        ...this.planInput,
        spec: { ...this.spec, image: this.moveImage, hasNetwork: false },
        isRuntimeDeferred: false,
        name: `agentbench-${ulid().toLowerCase()}`,
        labels: buildContainerLabels(this.spec.labels),
      });
      let container: Dockerode.Container;
      try {
        container = await withEngineDeadline(`create the ${runtime} container of sandbox ${previous.containerName}`, this.options.engineCallTimeoutMs ?? ENGINE_CALL_TIMEOUT_MS, (abortSignal) =>
          this.docker.createContainer({ ...plan.createOptions, abortSignal }),
        );
      } catch (error) {
        throw toSandboxError(this.docker, error, { action: `create the ${runtime} container of sandbox ${previous.containerName}`, ...runtimeContext(plan) });
      }
      this.container = container;
      this.plan = plan;
      this.isOnNoNetwork = true;
      await removeContainer(this.docker, previous.containerId, `the setup container ${previous.containerName}`);
      await this.startMainProcess();
      this.options.onDebug?.(`docker sandbox ${previous.containerName}: moved to runtime ${runtime} as ${this.containerName}`);
    } catch (error) {
      await this.dispose().catch(() => undefined);
      // The new container may be gone with the dispose; the old one too, if it was still ours.
      await removeContainer(this.docker, previous.containerId, `the setup container ${previous.containerName}`).catch(() => undefined);
      throw SandboxError.isInstance(error)
        ? error
        : new SandboxError('internal', `docker sandbox ${previous.containerName}: moving to runtime "${runtime}" failed: ${(error as Error).message}`, { cause: error });
    }
  }

  private async removeMoveImage(): Promise<void> {
    if (this.moveImage === undefined) return;
    await removeMoveImage(this.docker, this.moveImage);
    this.moveImage = undefined;
  }

  private assertUsable(): void {
    if (this.isDisposed) throw this.disposedError();
  }

  private disposedError(): SandboxError {
    return new SandboxError('sandbox_disposed', `docker sandbox ${this.containerName} was disposed`, { subject: this.containerId });
  }
}

type PlanInput = Omit<ContainerPlanInput, 'name' | 'labels'>;

/** The runtime of a plan, for errors: a runtime's own failure is then named as such. */
function runtimeContext(plan: ContainerPlan): { runtime?: string } {
  return plan.runtime === undefined ? {} : { runtime: plan.runtime };
}

/** Reads `stream` until it ends or passes `limit` bytes; what was read is returned either way. */
function readUpTo(stream: Readable, limit: number): Promise<{ data: Buffer; isComplete: boolean }> {
  // Events, not async iteration: the tar packer is a streamx stream, and leaving its iterator early destroys it.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (isComplete: boolean): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      resolve({ data: Buffer.concat(chunks), isComplete });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        finish(false);
      }
    };
    const onEnd = (): void => finish(true);
    const onError = (error: Error): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      reject(error);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

async function* prepend(head: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield head;
  for await (const chunk of rest) yield chunk as Buffer;
}

function definedFields<Fields extends object>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Fields>;
}

async function isRunning(docker: Dockerode, containerId: string): Promise<boolean> {
  try {
    const inspected = await docker.getContainer(containerId).inspect();
    return inspected.State.Running;
  } catch {
    return false;
  }
}

/** Moves a holder from `none` to the bridge before its sandbox starts with network. */
async function connectToBridge(docker: Dockerode, holder: NetworkHolder): Promise<void> {
  await docker.getNetwork(NO_NETWORK).disconnect({ Container: holder.containerId, Force: true });
  await docker.getNetwork(SANDBOX_NETWORK).connect({ Container: holder.containerId });
}

/** The mounted folder's owner runs the commands: with every capability dropped, root could not write a user's files. */
async function mountOwner(folder: string): Promise<string> {
  const stats = await requireHostFolder(folder, 'SandboxSpec.mountWorkspace');
  return `${stats.uid}:${stats.gid}`;
}

async function requireHostFolder(folder: string, field: string): Promise<{ uid: number; gid: number }> {
  let stats;
  try {
    stats = await stat(folder);
  } catch {
    throw new SandboxError('invalid_spec', `${field}: host folder "${folder}" does not exist`, { subject: folder });
  }
  if (!stats.isDirectory()) throw new SandboxError('invalid_spec', `${field}: "${folder}" is not a folder`, { subject: folder });
  return stats;
}

function engineFacts(docker: Dockerode): Promise<EngineFacts> {
  let facts = factsByEngine.get(docker);
  if (facts === undefined) {
    facts = docker.info().then(
      (info: { NCPU?: number; DefaultRuntime?: string }) => ({
        cpus: typeof info.NCPU === 'number' && info.NCPU > 0 ? info.NCPU : undefined,
        defaultRuntime: typeof info.DefaultRuntime === 'string' && info.DefaultRuntime !== '' ? info.DefaultRuntime : undefined,
      }),
      (error: unknown) => {
        factsByEngine.delete(docker);
        throw toSandboxError(docker, error, { action: 'read the engine information' });
      },
    );
    factsByEngine.set(docker, facts);
  }
  return facts;
}
