import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLoopResult } from '@agentbench/agent-loop';
import type { ModelProxy } from '@agentbench/cassette';
import type { ExecResult, Sandbox, SandboxSpec } from '@agentbench/sandbox';
import type { BaselineValidationResult, FailureReason, LoadedTask, Suspicion } from '@agentbench/schemas';
import { failureReasonForError } from '@agentbench/scoring';
import { ArtifactBudget } from '../artifacts/artifact-budget.js';
import type { BackgroundRemovals } from '../artifacts/background-removals.js';
import { discardSandboxWorkspace, keepSandboxWorkspace } from '../artifacts/keep-sandbox-workspace.js';
import { relativeToRun, type AttemptPaths } from '../artifacts/attempt-paths.js';
import { maxOutputBytesFor, TruncatedLogs } from '../plan/output-limits.js';
import { createDockerSandbox, type SandboxFactory } from '../plan/sandbox-factory.js';
import { ArtifactWriteError } from '../errors/artifact-write-error.js';
import { AttemptInterruptedError } from '../errors/attempt-interrupted-error.js';
import { RepositoryError } from '../errors/repository-error.js';
import { networkFailureOf, OFFLINE_CLONE_HINT } from '../git/network-unreachable.js';
import { describeWriteFailure } from './describe-write-failure.js';
import type { MirrorRule } from '../git/mirror-map.js';
import type { BaselineMismatch } from '../validation/check-baseline-expectations.js';
import type { VerdictOutcome, VerdictSetup } from '../verdict/final-verdict.js';
import type { RepoCache } from '../git/repo-cache.js';
import type { AttemptStage, StageReport } from './attempt-stage.js';
import { AttemptStop } from './attempt-stop.js';
import { taskSandboxSpec } from './task-sandbox-spec.js';

export interface AttemptContextOptions {
  loaded: LoadedTask;
  paths: AttemptPaths;
  /** Stored in the record and on the sandboxes' labels. */
  runId: string;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  /** Default: a hardened Docker container. */
  createSandbox?: SandboxFactory;
  /** Aborting stops the attempt: the running command is killed, the sandboxes removed, the outcome is INTERRUPTED. */
  signal?: AbortSignal;
  onStage?: (stage: AttemptStage) => void;
  /** Extra environment variables of every command in the attempt's sandbox. */
  env?: Record<string, string>;
  /** The run's budget for kept workspaces. Default: a budget of its own (1 GiB). */
  artifactBudget?: ArtifactBudget;
  /**
   * The caller keeps no workspace (a suite run with `keepWorkspaces: 'none'`): it is removed once
   * the sandbox is gone, neither sanitized nor measured, and the record names none. Default false.
   */
  discardWorkspace?: boolean;
  /**
   * With `discardWorkspace`: the run's background removals, which remove the workspace after the
   * sandbox is gone without the attempt waiting for it (the run awaits them before it ends).
   * Default: the attempt removes it itself before it returns.
   */
  workspaceRemovals?: BackgroundRemovals;
  /** Bytes of stdout and of stderr each command's log keeps. Default: the task's `environment.max_output_bytes`, else 10 MiB. */
  maxOutputBytes?: number;
}

/** How an attempt ended, whichever stage ended it. */
export interface AttemptEnd {
  failureReason: FailureReason | null;
  message: string;
}

/** How the pipeline ended, with its timings: what the record is built from. */
export interface PipelineEnd extends AttemptEnd {
  startedAt: Date;
  endedAt: Date;
  totalMs: number;
}

/**
 * What the stages of one attempt share: the task, where its files go, the attempt's sandbox and
 * what was recorded so far (artifacts, stage reports, timings, notes). It also holds the one
 * place where a thrown error becomes a FailureReason, so every command that runs attempts
 * classifies the same event the same way.
 */
export class AttemptContext {
  readonly loaded: LoadedTask;
  readonly task: LoadedTask['task'];
  readonly paths: AttemptPaths;
  readonly runId: string;
  readonly signal: AbortSignal | undefined;
  readonly maxOutputBytes: number;
  readonly truncatedLogs: TruncatedLogs;
  readonly artifacts: Record<string, string> = {};
  readonly stages: StageReport[] = [];
  /** Each setup command as written and as run (after pip normalisation). */
  readonly setupCommands: Array<{ written: string; run: string }> = [];
  /** Things the record's reader should know (left-out files, what became of the workspace). */
  readonly notes: string[] = [];
  currentStage: AttemptStage = 'git_clone';
  /** Time inside the attempt's own sandbox calls (create, exec, setNetwork, files, dispose). */
  sandboxMs = 0;
  /** Time in git on the host (clone, checkout, snapshots). */
  gitMs = 0;
  lastExitCode: number | undefined;
  /** Exit code of the (first) test run: the baseline's or the final one. */
  testExitCode: number | undefined;
  /** Failing test ids parsed from the (first) test run. */
  failingTests: string[] = [];
  mismatches: BaselineMismatch[] = [];
  /**
   * Report keys of the tests that passed in the baseline's report (a task with named tests and a
   * report): a baseline attempt's, or the one an agent attempt's baseline gate ran.
   */
  baselinePassingKeys: string[] | undefined;
  /** An agent attempt's baseline validation (not attempted until its stage runs). */
  baseline: BaselineValidationResult = { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null };
  /** The agent loop's result, once the agent ran. */
  agentRun: AgentLoopResult | undefined;
  /** The final verdict of an agent attempt, and how long its stage took. */
  verdict: VerdictOutcome | undefined;
  verdictMs: number | undefined;
  /** How the verdict's sandbox of an agent attempt got its post-setup state (set once it started). */
  verdictSetup: VerdictSetup | undefined;
  /** What the scanners found in an agent attempt's changes (set once they ran: empty when nothing). */
  suspicions: Suspicion[] | undefined;
  /** Set when the attempt ended because its folder could not take a file (a full or read-only disk). */
  writeFailure: ArtifactWriteError | undefined;
  commitSha: string | undefined;
  repositorySource: string | undefined;
  /**
   * How the LLM endpoint failed on the attempt's last model exchange, as its model proxy saw it
   * (set by the caller that runs the proxy): the only evidence that makes an LLM_ERROR `infra`.
   */
  endpointFailure: string | undefined;
  /** The model proxy a stage ran for the attempt (an installed agent's gateway), read for the result once the attempt ends. */
  modelProxy: ModelProxy | undefined;
  /** Host folders mounted read-only into the attempt's own sandbox (an installed agent and its gateway's socket); set before it starts. */
  readOnlyMounts: NonNullable<SandboxSpec['readOnlyMounts']> = [];
  /** The task's repository could not be cloned for want of a network, in git's words: the evidence that makes a GIT_CLONE_FAILED `infra`. */
  networkFailure: string | undefined;
  private sandbox: Sandbox | undefined;
  /** The attempt's own sandbox, kept after its removal: its backend and runtime go into the record. */
  private startedSandbox: Sandbox | undefined;
  private readonly cleanups: Array<() => Promise<void>> = [];
  private readonly hostCleanups: Array<() => Promise<void>> = [];

  constructor(private readonly options: AttemptContextOptions) {
    this.loaded = options.loaded;
    this.task = options.loaded.task;
    this.paths = options.paths;
    this.runId = options.runId;
    this.signal = options.signal;
    this.maxOutputBytes = maxOutputBytesFor(this.task, options.maxOutputBytes);
    this.truncatedLogs = new TruncatedLogs(this.paths.runDir);
  }

  /** The harness's own abort signal has fired (the run is stopping): an interruption is then the harness's, not the agent's. */
  get isHarnessAbort(): boolean {
    return this.signal?.aborted === true;
  }

  /** Where the task's repository comes from, and the abort signal: for every clone of the attempt. */
  get repositoryOptions(): { mirrors?: readonly MirrorRule[]; cache?: RepoCache; signal?: AbortSignal } {
    return {
      ...(this.options.mirrors === undefined ? {} : { mirrors: this.options.mirrors }),
      ...(this.options.cache === undefined ? {} : { cache: this.options.cache }),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
    };
  }

  /** Every sandbox of the attempt (its own, the baseline's, the verdict's): logs that dropped output go to the record. */
  get createSandbox(): SandboxFactory {
    return this.truncatedLogs.watch(this.options.createSandbox ?? createDockerSandbox);
  }

  /** The spec of the attempt's sandbox: the task's image and limits, the workspace mounted, network only for setup. */
  sandboxSpec(): SandboxSpec {
    return {
      ...taskSandboxSpec(this.task),
      mountWorkspace: path.resolve(this.paths.workspaceDir),
      labels: { runId: this.runId, taskId: this.task.id },
      defaultTimeoutSec: this.task.environment.timeout_sec,
      logDir: this.paths.logDir,
      logCapBytes: this.maxOutputBytes,
      ...(this.options.env === undefined ? {} : { env: this.options.env }),
      ...(this.readOnlyMounts.length === 0 ? {} : { readOnlyMounts: this.readOnlyMounts }),
    };
  }

  /** Creates the attempt's sandbox; every call to it is counted in `sandboxMs`. */
  async startSandbox(): Promise<Sandbox> {
    const created = await this.timed(() => this.createSandbox(this.sandboxSpec()));
    this.sandbox = created;
    this.startedSandbox = created;
    return this.timedSandbox(created);
  }

  /**
   * What the attempt ran in, for its record: the sandbox's backend and, for Docker, the OCI runtime
   * its container ran under last (after a move to gVisor, `runsc`; else the engine's default by name).
   * Null runtime: a backend without one. Empty when no sandbox was started.
   */
  get sandboxFacts(): { backend?: string; runtime?: string | null } {
    const sandbox = this.startedSandbox;
    if (sandbox === undefined) return {};
    if (sandbox.backend !== 'docker') return { backend: sandbox.backend, runtime: null };
    const runtime = (sandbox as Sandbox & { runtimeName?: string }).runtimeName;
    return { backend: sandbox.backend, ...(runtime === undefined ? {} : { runtime }) };
  }

  /** Runs a command of the harness's own (tests, probes) in the repository; an abort ends the attempt as interrupted. */
  async exec(sandbox: Sandbox, command: string | string[], logName: string, outputCapBytes?: number, env?: Record<string, string>): Promise<ExecResult> {
    const result = await sandbox.exec(command, {
      cwd: 'repo',
      timeoutSec: this.task.environment.timeout_sec,
      logName,
      ...(outputCapBytes === undefined ? {} : { outputCapBytes }),
      ...(env === undefined ? {} : { env }),
      ...(this.signal === undefined ? {} : { signal: this.signal }),
    });
    if (result.logPath !== undefined) this.artifact(`${logName}_log`, result.logPath);
    if (result.killedBy === 'abort') throw new AttemptInterruptedError(this.currentStage);
    return result;
  }

  /** The log fields of a stage report. */
  logOf(result: ExecResult): { log?: string; logTruncated?: boolean } {
    if (result.logPath === undefined) return {};
    return { log: relativeToRun(this.paths.runDir, result.logPath), ...(result.logTruncated === true ? { logTruncated: true } : {}) };
  }

  async timed<T>(action: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await action();
    } finally {
      this.sandboxMs += performance.now() - started;
    }
  }

  throwIfAborted(): void {
    if (this.signal?.aborted === true) throw new AttemptInterruptedError(this.currentStage);
  }

  enterStage(stage: AttemptStage): void {
    this.currentStage = stage;
    this.options.onStage?.(stage);
  }

  artifact(name: string, file: string): void {
    this.artifacts[name] = relativeToRun(this.paths.runDir, file);
  }

  /** Runs when the attempt ends, after its sandbox is removed (latest registered first). */
  onCleanup(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /**
   * Runs when the attempt ends, while its sandbox is being removed: for the harness's own files
   * on the host, which no sandbox mounts, so their removal need not wait for the engine.
   */
  onHostCleanup(cleanup: () => Promise<void>): void {
    this.hostCleanups.push(cleanup);
  }

  /** The one classification: how a thrown error (or a stop) ends the attempt. */
  async endFor(error: unknown): Promise<AttemptEnd> {
    // A file the disk could not take (a log, the workspace, git's objects) is named with its cause, whatever stage met it.
    const described = await describeWriteFailure(error, this.paths);
    if (ArtifactWriteError.isInstance(described)) {
      this.writeFailure = described;
      return { failureReason: failureReasonForError(described), message: described.message };
    }
    if (error instanceof AttemptStop) {
      if (error.exitCode !== undefined) this.lastExitCode = error.exitCode;
      return { failureReason: error.failureReason, message: error.message };
    }
    if (this.signal?.aborted === true || AttemptInterruptedError.isInstance(error)) {
      return { failureReason: 'INTERRUPTED', message: `interrupted during ${this.currentStage}` };
    }
    // A repository error says all there is to say; anything else keeps its stack for us.
    if (!RepositoryError.isInstance(error)) await this.writeErrorLog(error);
    else if (error.stage === 'git_clone') {
      this.networkFailure = networkFailureOf(error.gitMessage);
      if (this.networkFailure !== undefined) return { failureReason: failureReasonForError(error), message: `${error.message}; ${OFFLINE_CLONE_HINT}` };
    }
    return { failureReason: failureReasonForError(error), message: error instanceof Error ? error.message : String(error) };
  }

  /**
   * Removes the attempt's sandbox (the host's own files, the snapshots, meanwhile), then whatever
   * else the stages left to clean (the verdict's sandbox), then keeps the workspace while the
   * run's budget allows. A removal that fails only changes an attempt that had otherwise
   * succeeded; failures are weighed in that order, the host's last.
   */
  async finish(end: AttemptEnd): Promise<AttemptEnd> {
    let result = end;
    const fail = (error: unknown, what: string): void => {
      if (result.failureReason === null) {
        result = { failureReason: failureReasonForError(error), message: `cannot remove ${what}: ${error instanceof Error ? error.message : String(error)}` };
      }
    };
    const hostCleaned = Promise.allSettled(this.hostCleanups.reverse().map((cleanup) => cleanup()));
    await this.disposeSandbox().catch((error: unknown) => fail(error, 'the sandbox'));
    for (const cleanup of this.cleanups.reverse()) await cleanup().catch((error: unknown) => fail(error, 'a sandbox of the attempt'));
    for (const outcome of await hostCleaned) if (outcome.status === 'rejected') fail(outcome.reason, 'a sandbox of the attempt');
    await this.keepWorkspace();
    return result;
  }

  /** The attempt's own sandbox goes (before the final snapshot, so no process of it is left to change the tree). */
  async disposeSandbox(): Promise<void> {
    const sandbox = this.sandbox;
    if (sandbox === undefined) return;
    this.sandbox = undefined;
    await this.timed(() => sandbox.dispose());
  }

  /** The sandbox is gone: its workspace is made safe to keep, and kept while the run's budget allows (or removed, when the caller keeps none). */
  private async keepWorkspace(): Promise<void> {
    if (this.artifacts['workspace'] === undefined) return;
    if (this.options.discardWorkspace === true) {
      delete this.artifacts['workspace'];
      const removals = this.options.workspaceRemovals;
      // A rename that fails (it should not: same folder) leaves the removal to the attempt, as without removals.
      if (removals !== undefined && (await removals.start(this.paths.workspaceDir).then(() => true, () => false))) return;
      const failure = await discardSandboxWorkspace(this.paths.workspaceDir);
      if (failure !== undefined) this.notes.push(failure);
      return;
    }
    const budget = this.options.artifactBudget ?? new ArtifactBudget();
    const kept = await keepSandboxWorkspace({ workspaceDir: this.paths.workspaceDir, runDir: this.paths.runDir, budget, label: this.task.id });
    if (kept.manifest !== undefined) this.artifacts['workspace_manifest'] = kept.manifest;
    if (!kept.isKept) delete this.artifacts['workspace'];
    if (kept.note !== undefined) this.notes.push(kept.note);
  }

  private async writeErrorLog(error: unknown): Promise<void> {
    const file = path.join(this.paths.logDir, 'error.txt');
    const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    try {
      await mkdir(this.paths.logDir, { recursive: true });
      await writeFile(file, `${text}\n`);
      this.artifact('error', file);
    } catch {
      // The record still carries the reason.
    }
  }

  /** The same sandbox, adding the time of every call to `sandboxMs`. */
  private timedSandbox(sandbox: Sandbox): Sandbox {
    const timedMethods = new Set(['exec', 'readFile', 'writeFile', 'listFiles', 'copyIn', 'copyOut', 'setNetwork']);
    return new Proxy(sandbox, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = (value as (...parameters: unknown[]) => unknown).bind(target);
        if (typeof property !== 'string' || !timedMethods.has(property)) return method;
        return (...parameters: unknown[]) => this.timed(async () => method(...parameters));
      },
    });
  }
}
