/**
 * The one interface every backend implements. Tools and everything above talk to a
 * workspace only through it, so a backend can change without touching them.
 */

/** Exit code reported when a command is killed because it ran past its timeout (as coreutils `timeout`). */
export const EXIT_CODE_TIMEOUT = 124;
/** Exit code reported when a command is killed by SIGKILL, e.g. by the memory limit (128 + 9). */
export const EXIT_CODE_KILLED = 137;

/** The backends built into this package. */
export type BuiltinBackendName = 'docker' | 'bwrap' | 'local';
/** A registered backend's name: a built-in, or one a plugin registered (`registerSandboxBackend`). */
export type BackendName = BuiltinBackendName | (string & {});

export interface SandboxLimits {
  /** Memory limit in MiB (docker: cgroup; bwrap: cgroup when writable, else address-space rlimit). */
  memoryMb?: number;
  /** CPU quota in cores, e.g. 1.5. */
  cpus?: number;
  /** Maximum number of processes and threads alive at once. */
  pids?: number;
}

export interface SandboxSpec {
  /** Container image (docker) ; ignored by bwrap and local. */
  image?: string;
  /** Root filesystem folder for the bwrap backend (the runner image exported once). */
  rootfs?: string;
  /** Absolute path of the workspace inside the sandbox. Default `/workspace`. */
  workdir?: string;
  /** Host folder whose contents are copied into the workspace at creation. */
  hostWorkspace?: string;
  /**
   * Host folder mounted read-write as the workspace instead of copying. The sandbox
   * writes into it directly; used by the harness so artifacts see the final tree.
   */
  mountWorkspace?: string;
  /**
   * Host folders bind-mounted read-only at absolute paths inside the sandbox (docker only): the
   * attempt gateway's socket folder, an installed agent. Nothing in them can be changed from inside.
   */
  readOnlyMounts?: readonly { hostPath: string; sandboxPath: string }[];
  /** Files written into the workspace at creation, keyed by path relative to the workspace. */
  files?: Record<string, string | Uint8Array>;
  /** Environment variables for every command. */
  env?: Record<string, string>;
  limits?: SandboxLimits;
  /** Whether commands may reach the network at creation. Default false. */
  hasNetwork?: boolean;
  /**
   * OCI runtime of the container (docker), as registered with the engine: `runsc` (gVisor, see
   * `scripts/setup.sh --with-gvisor`), `runc`... Default: the engine's default runtime. A runtime
   * registered without network (`--network=none`) starts a sandbox that has network under the
   * default runtime, and moves it to this runtime when the network is cut (see the README).
   * Ignored by bwrap and local.
   */
  runtime?: string;
  /** Labels stored on the container (docker) so leftovers can be found: run id, task id. */
  labels?: Record<string, string>;
  /** Default per-command timeout in seconds. Default 300. */
  defaultTimeoutSec?: number;
  /** Default cap, in bytes, of stdout and of stderr kept in an ExecResult. Default 1 MiB. */
  defaultOutputCapBytes?: number;
  /** Folder where each command's stdout/stderr log is written (capped by `logCapBytes`). Default: none kept. */
  logDir?: string;
  /**
   * Bytes of stdout and of stderr each command log keeps (head and tail halves, a marker naming the
   * dropped bytes between). Output is sandbox-written: nothing it prints is stored unbounded. Default 10 MiB.
   */
  logCapBytes?: number;
}

export interface ExecOptions {
  /** Working directory; relative paths resolve against the workspace. */
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string | Uint8Array;
  /** Seconds before the whole process tree is killed and exit code 124 reported. */
  timeoutSec?: number;
  /** Bytes of stdout and of stderr kept in the result; the rest is dropped with a marker. */
  outputCapBytes?: number;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Name used for the log file in `logDir` (default: a counter). */
  logName?: string;
  /** Bytes of stdout and of stderr this command's log keeps. Default: the spec's `logCapBytes`. */
  logCapBytes?: number;
  /** Aborting kills the command (reported as 137 with `killedBy: 'abort'`). */
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** How the command ended when not by itself: timeout, a signal (e.g. the OOM killer), or our abort. */
  killedBy?: 'timeout' | 'signal' | 'oom' | 'abort';
  /** The signal number that ended the command, when one did. */
  signal?: number;
  truncated: boolean;
  durationMs: number;
  /** Path of the log file holding stdout and stderr (up to `logCapBytes` each), when `logDir` is set. */
  logPath?: string;
  /** Set with `logPath`: whether the log dropped output (more than `logCapBytes` of a stream). */
  logTruncated?: boolean;
}

export interface FileEntry {
  /** Path relative to the listed folder. */
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
}

export interface Sandbox extends AsyncDisposable {
  readonly id: string;
  readonly backend: BackendName;
  /** Absolute workspace path inside the sandbox. */
  readonly workdir: string;
  /** A string runs through `/bin/sh -c`; an argv array runs as is. */
  exec(command: string | string[], options?: ExecOptions): Promise<ExecResult>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  listFiles(path?: string, options?: { recursive?: boolean }): Promise<FileEntry[]>;
  /** Copies a host file or folder into the sandbox at `sandboxPath`. */
  copyIn(hostPath: string, sandboxPath: string): Promise<void>;
  /** Copies a sandbox file or folder out to `hostPath`. */
  copyOut(sandboxPath: string, hostPath: string): Promise<void>;
  /** Connects or cuts the network for the commands that follow. */
  setNetwork(hasNetwork: boolean): Promise<void>;
  /**
   * A capability some backends have: keeps the sandbox's file system as it is now (all but the
   * mounted workspace and /tmp) as an image another sandbox of the backend can start from. The
   * image is immutable: nothing the sandbox does afterwards reaches it. Undefined when the sandbox
   * cannot (a runtime whose writes the engine does not see, like gVisor's).
   */
  snapshot?(): Promise<SandboxSnapshot | undefined>;
  dispose(): Promise<void>;
}

/** A sandbox's file system kept as an image (`Sandbox.snapshot`). */
export interface SandboxSnapshot {
  /** The image (`SandboxSpec.image`). */
  readonly image: string;
  /**
   * A sandbox started from the image, by the backend and engine that took it (so no pool or
   * placement of the caller's can start it elsewhere, or keep a warm copy that pins the image).
   */
  createSandbox(spec: SandboxSpec): Promise<Sandbox>;
  /** Removes the image (once no sandbox runs from it); a second call does nothing. */
  dispose(): Promise<void>;
}
