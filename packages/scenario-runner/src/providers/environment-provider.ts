import type { DockerSandboxPool, NetworkHolderPool, Sandbox } from '@agentbench/sandbox';
import type { ScenarioEnvironment } from '@agentbench/schemas';

/** A file written into the environment during setup (spec section 3). */
export interface FileSystemOperation {
  type: 'write';
  /** Relative to the environment's working folder; parent folders are created. */
  path: string;
  content: string;
}

/** What a command produced, with the environment's files after it (spec section 3). */
export interface ExecutionResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Relative path to text content, after execution (binary and very large files are left out). */
  files: Record<string, string>;
  durationMs: number;
  timedOut: boolean;
}

export interface ProviderRunOptions {
  stdin?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default true: read the files after the command (`files` is empty otherwise). */
  captureFiles?: boolean;
}

/**
 * Where a scenario runs (spec section 3): `setup` writes files, `run` executes a shell command,
 * `teardown` frees everything. Built-in providers sit on a `Sandbox`; plugin providers may not.
 */
export interface EnvironmentProvider {
  /** The `environment.type` it serves. */
  readonly type: string;
  /** The sandbox under it, when there is one: the agent's tools work on it. */
  readonly sandbox?: Sandbox;
  setup(operations: readonly FileSystemOperation[]): Promise<void>;
  run(command: string, options?: ProviderRunOptions): Promise<ExecutionResult>;
  /** The files of the environment now (relative path to text). */
  readFiles(): Promise<Record<string, string>>;
  /**
   * The command that runs JavaScript read from stdin (e.g. `["node", "-"]`'s program part), preparing
   * it if needed. Undefined when the environment cannot run JavaScript.
   */
  nodeCommand?(): Promise<string | undefined>;
  teardown(): Promise<void>;
}

/** What a provider factory receives. */
export interface EnvironmentProviderContext {
  environment: ScenarioEnvironment;
  /** Absolute folder of the scenario file. */
  scenarioDir: string;
  scenarioName: string;
  runId: string;
  /** The `config` of the plugin reference that brought the provider (empty for built-ins). */
  config: Readonly<Record<string, unknown>>;
  /** Variables set for every command (e.g. AGENTBENCH_SERVICES_URL). */
  env: Record<string, string>;
  /** Notes for the run log (e.g. "copied the host's node into the container"). */
  onNote?: (message: string) => void;
  /** Started network holders a Docker sandbox may join (a faster start); see `NetworkHolderPool`. */
  networkHolders?: NetworkHolderPool;
  /** Warm Docker sandboxes to take the environment from (see `SandboxPool`); with none ready, the pool creates one cold. */
  sandboxPool?: DockerSandboxPool;
}

export type EnvironmentProviderFactory = (context: EnvironmentProviderContext) => EnvironmentProvider | Promise<EnvironmentProvider>;
