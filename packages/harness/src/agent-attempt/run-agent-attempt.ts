import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  EventLogger,
  loadAgent,
  resolveLoopLimits,
  runAgentLoop,
  toLlmToolDefinitions,
  type Agent,
  type AgentLoopLimits,
  type AgentLoopResult,
  type EventListener,
} from '@agentbench/agent-loop';
import type { ExecResult, Sandbox, SandboxSpec } from '@agentbench/sandbox';
import {
  ATTEMPT_RECORD_SCHEMA_VERSION,
  HARNESS_VERSION,
  appendJsonLine,
  loadTask,
  writeJsonAtomic,
  type AttemptRecord,
  type BaselineValidationResult,
  type FailureReason,
  type LoadedTask,
  type RunRecord,
  type StopReason,
} from '@agentbench/schemas';
import { failureReasonForError, failureReasonForStage, pickFailureReason } from '@agentbench/scoring';
import { createToolSet } from '@agentbench/tools';
import { ulid } from 'ulid';
import { ArtifactBudget } from '../artifacts/artifact-budget.js';
import { keepSandboxWorkspace } from '../artifacts/keep-sandbox-workspace.js';
import { snapshotGitDirectory } from '../attempt/attempt-paths.js';
import { maxOutputBytesFor, TruncatedLogs } from '../attempt/output-limits.js';
import { createDockerSandbox, type SandboxFactory } from '../attempt/sandbox-factory.js';
import { validateBaseline } from '../baseline/validate-baseline.js';
import type { MirrorRule } from '../git/mirror-map.js';
import { prepareWorkspace } from '../git/prepare-workspace.js';
import type { RepoCache } from '../git/repo-cache.js';
import { WorkTreeSnapshots } from '../git/work-tree-snapshots.js';
import { RUN_DIRECTORY_MODE } from '../run/run-directory.js';
import { runSetupCommands } from '../setup/run-setup-commands.js';
import { FinalVerdict, type VerdictOutcome } from '../verdict/final-verdict.js';

export interface RunAgentAttemptOptions {
  /** task.yaml path, or a task loaded already. */
  task: string | LoadedTask;
  /** URL rewrites for the task's repository (see `loadMirrorMap`). */
  mirrors?: readonly MirrorRule[];
  /** Cache of remote repositories. Default: a RepoCache in its default folder. */
  cache?: RepoCache;
  /** `scripted`, `llm` (`llm_v0`), a .js/.mjs path or a package name. Default: the task's `agent.entrypoint`, else `scripted`. */
  variant?: string;
  /** An agent built by the caller, instead of loading `variant`. */
  agent?: Agent;
  /** Artifacts folder; the attempt goes to `<outDir>/agent_runs/<task_id>/<ulid>/`. Default `artifacts`. */
  outDir?: string;
  skipBaseline?: boolean;
  /** Reject non-standard patches. Default: `AGENTBENCH_STRICT_PATCH`. */
  strictPatch?: boolean;
  /** `llm_messages.jsonl`. Default: `AGENTBENCH_LOG_LLM_MESSAGES` (on). */
  logLlmMessages?: boolean;
  /** Default: the task's `agent.max_steps`, else 30. */
  maxSteps?: number;
  limits?: Partial<Omit<AgentLoopLimits, 'maxSteps'>>;
  /** LLM model (wins over MODEL_NAME). */
  model?: string;
  /** Scripted agent: a script file instead of the task's. */
  scriptFile?: string;
  /** Folder custom agent paths and packages resolve from. Default `process.cwd()`. */
  baseDir?: string;
  environment?: NodeJS.ProcessEnv;
  /** Default: a hardened Docker container. */
  createSandbox?: SandboxFactory;
  /** The run's budget for kept workspaces (a suite passes one for all its attempts). Default: 1 GiB for this attempt. */
  artifactBudget?: ArtifactBudget;
  /** Bytes of stdout and of stderr each command's log keeps (`--max-output-bytes`). Default: the task's `environment.max_output_bytes`, else 10 MiB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  onEvent?: EventListener;
  onStage?: (stage: AgentAttemptStage) => void;
}

export type AgentAttemptStage = 'baseline' | 'git_clone' | 'setup' | 'agent_run' | 'final_test';

export interface RunAgentAttemptResult {
  runDir: string;
  record: AttemptRecord;
  /** The loop's result, when the agent ran. */
  loop?: AgentLoopResult;
  /** One line: how the attempt ended. */
  message: string;
}

/** Ends the attempt early with a recorded reason. */
class AttemptStop {
  constructor(
    readonly failureReason: FailureReason,
    readonly message: string,
    readonly exitCode?: number,
  ) {}
}

function relative(runDir: string, target: string): string {
  return path.relative(runDir, target).split(path.sep).join('/');
}

/**
 * One agent attempt, as `ab run-agent` runs it: baseline validation → clone and pin the
 * repository → a sandbox with network for setup, cut before the agent → the agent loop → the final
 * verdict (the agent's diff, without the task's tests, applied in a fresh post-setup sandbox; see
 * FinalVerdict) → the AttemptRecord, written to `attempt.json` and appended to `attempts.jsonl`.
 * Artifacts under `<outDir>/agent_runs/<task_id>/<ulid>/`: `run.json`, `events.jsonl`,
 * `llm_messages.jsonl`, `diffs/step_NNNN.patch`, `logs/`, `verdict/` (the applied and the dropped
 * diff, the final test's logs), `workspace/` (the agent's final tree). The agent is built before anything runs, so configuration mistakes (a missing API key,
 * a bad `--variant`) are thrown; every later failure becomes a recorded FailureReason.
 */
export async function runAgentAttempt(options: RunAgentAttemptOptions): Promise<RunAgentAttemptResult> {
  const loaded = typeof options.task === 'string' ? await loadTask(options.task) : options.task;
  const task = loaded.task;
  const variantName = options.variant ?? task.agent?.entrypoint ?? 'scripted';
  const maxSteps = options.maxSteps ?? task.agent?.max_steps;
  const limits = resolveLoopLimits({ ...options.limits, ...(maxSteps === undefined ? {} : { maxSteps }) });
  const environment = options.environment ?? process.env;

  let agent: Agent;
  let variant: string;
  if (options.agent !== undefined) {
    agent = options.agent;
    variant = options.variant ?? agent.name;
  } else {
    const loadedAgent = await loadAgent(variantName, {
      task: loaded,
      environment,
      ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.scriptFile === undefined ? {} : { scriptFile: options.scriptFile }),
      ...(options.logLlmMessages === undefined ? {} : { logLlmMessages: options.logLlmMessages }),
    });
    agent = loadedAgent.agent;
    variant = loadedAgent.variant;
  }

  const runId = ulid();
  const outDir = path.resolve(options.outDir ?? 'artifacts');
  const runDir = path.join(outDir, 'agent_runs', task.id, runId);
  await mkdir(path.dirname(runDir), { recursive: true });
  await mkdir(runDir, { mode: RUN_DIRECTORY_MODE });
  return new AgentAttempt({ options, loaded, agent, variant, limits, runId, runDir }).run();
}

class AgentAttempt {
  private readonly options: RunAgentAttemptOptions;
  private readonly loaded: LoadedTask;
  private readonly task: LoadedTask['task'];
  private readonly agent: Agent;
  private readonly variant: string;
  private readonly limits: AgentLoopLimits;
  private readonly runId: string;
  private readonly runDir: string;
  private readonly logDir: string;
  private readonly workspaceDir: string;
  private readonly artifacts: Record<string, string> = {};
  private sandbox: Sandbox | undefined;
  private sandboxMs = 0;
  private baseline: BaselineValidationResult = { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null };
  private loopResult: AgentLoopResult | undefined;
  private finalExitCode: number | undefined;
  private finalPassed = false;
  private snapshots: WorkTreeSnapshots | undefined;
  private verdict: FinalVerdict | undefined;
  private finalVerdict: VerdictOutcome | undefined;
  private verdictMs: number | undefined;
  /** Things the record's reader should know (left-out files, what became of the workspace). */
  private readonly notes: string[] = [];
  private readonly maxOutputBytes: number;
  private readonly truncatedLogs: TruncatedLogs;

  constructor(input: { options: RunAgentAttemptOptions; loaded: LoadedTask; agent: Agent; variant: string; limits: AgentLoopLimits; runId: string; runDir: string }) {
    this.options = input.options;
    this.loaded = input.loaded;
    this.task = input.loaded.task;
    this.agent = input.agent;
    this.variant = input.variant;
    this.limits = input.limits;
    this.runId = input.runId;
    this.runDir = input.runDir;
    this.logDir = path.join(input.runDir, 'logs');
    this.workspaceDir = path.join(input.runDir, 'workspace');
    this.maxOutputBytes = maxOutputBytesFor(this.task, this.options.maxOutputBytes);
    this.truncatedLogs = new TruncatedLogs(this.runDir);
  }

  /** Every sandbox of the attempt (baseline, agent, verdict): their logs that dropped output go to the record. */
  private get createSandbox(): SandboxFactory {
    return this.truncatedLogs.watch(this.options.createSandbox ?? createDockerSandbox);
  }

  async run(): Promise<RunAgentAttemptResult> {
    const startedAt = new Date();
    const runFile = path.join(this.runDir, 'run.json');
    const runRecord: RunRecord = {
      run_id: this.runId,
      kind: 'agent',
      created_at: startedAt.toISOString(),
      finished_at: null,
      harness_version: HARNESS_VERSION,
      suite: this.task.suite,
      task_ids: [this.task.id],
      options: { task_file: this.loaded.file, variant: this.variant, skip_baseline: this.options.skipBaseline === true, limits: { ...this.limits } },
      status: 'running',
      counts: null,
    };
    await writeJsonAtomic(runFile, runRecord);
    await mkdir(this.logDir, { recursive: true });
    this.artifact('logs', this.logDir);

    let failureReason: FailureReason | null = null;
    let message: string;
    try {
      message = await this.stages();
      failureReason = this.finalPassed ? null : this.agentFailureReason();
    } catch (error) {
      if (error instanceof AttemptStop) {
        failureReason = error.failureReason;
        message = error.message;
        if (error.exitCode !== undefined) this.finalExitCode = error.exitCode;
      } else if (this.options.signal?.aborted === true) {
        failureReason = 'INTERRUPTED';
        message = 'interrupted';
      } else {
        failureReason = failureReasonForError(error);
        message = error instanceof Error ? error.message : String(error);
        if (failureReason === 'INTERNAL_ERROR') await this.writeErrorLog(error);
      }
    } finally {
      await this.disposeSandbox();
      await this.verdict?.dispose();
      await this.snapshots?.remove();
    }
    await this.keepWorkspace();
    const endedAt = new Date();
    const record = this.buildRecord(startedAt, endedAt, failureReason);
    const attemptFile = path.join(this.runDir, 'attempt.json');
    record.artifact_paths['attempt'] = relative(this.runDir, attemptFile);
    await writeJsonAtomic(attemptFile, record);
    await appendJsonLine(path.join(this.runDir, 'attempts.jsonl'), record);
    const isErrored = failureReason === 'INTERNAL_ERROR' || failureReason === 'SANDBOX_ERROR' || failureReason === 'UNKNOWN';
    await writeJsonAtomic(runFile, {
      ...runRecord,
      finished_at: endedAt.toISOString(),
      status: failureReason === 'INTERRUPTED' ? 'interrupted' : 'completed',
      counts: { total: 1, passed: record.result.passed ? 1 : 0, failed: !record.result.passed && !isErrored ? 1 : 0, errored: isErrored ? 1 : 0, skipped: 0 },
      details: { message, stop_reason: this.loopResult?.stopReason ?? null, failure_reason: failureReason, ...(this.notes.length === 0 ? {} : { notes: this.notes }) },
    });
    const result: RunAgentAttemptResult = { runDir: this.runDir, record, message };
    if (this.loopResult !== undefined) result.loop = this.loopResult;
    return result;
  }

  private async stages(): Promise<string> {
    const { signal } = this.options;
    const environment = this.task.environment;
    const repositoryOptions = {
      ...(this.options.mirrors === undefined ? {} : { mirrors: this.options.mirrors }),
      ...(this.options.cache === undefined ? {} : { cache: this.options.cache }),
      ...(signal === undefined ? {} : { signal }),
    };

    if (this.options.skipBaseline !== true) {
      this.options.onStage?.('baseline');
      const baselineDir = path.join(this.runDir, 'baseline');
      const outcome = await validateBaseline(this.loaded, {
        runDir: this.runDir,
        runId: this.runId,
        paths: { logDir: path.join(baselineDir, 'logs'), workspaceDir: path.join(baselineDir, 'workspace') },
        createSandbox: this.createSandbox,
        maxOutputBytes: this.maxOutputBytes,
        ...repositoryOptions,
      });
      this.baseline = outcome.record.baseline_validation;
      // The baseline's clone has served its purpose; its logs stay.
      await rm(path.join(baselineDir, 'workspace'), { recursive: true, force: true });
      this.artifact('baseline_logs', path.join(baselineDir, 'logs'));
      if (!outcome.isSuccess) {
        throw new AttemptStop(outcome.failureReason ?? 'BASELINE_MISMATCH', `baseline: ${outcome.message}`, outcome.record.baseline_validation.exit_code ?? undefined);
      }
    }
    this.throwIfAborted();

    const commands = this.task.setup.commands;
    const spec: SandboxSpec = {
      image: environment.docker_image,
      workdir: environment.workdir,
      mountWorkspace: this.workspaceDir,
      hasNetwork: commands.length > 0,
      labels: { runId: this.runId, taskId: this.task.id },
      defaultTimeoutSec: environment.timeout_sec,
      logDir: this.logDir,
      logCapBytes: this.maxOutputBytes,
    };
    // The fresh sandbox that judges the agent's diff is cloned and set up from now on, beside the
    // agent's own setup and loop, so the final stage rarely waits for it.
    this.verdict = FinalVerdict.start({
      loaded: this.loaded,
      verdictDir: path.join(this.runDir, 'verdict'),
      spec: { ...spec, labels: { ...spec.labels, role: 'verdict' } },
      createSandbox: this.createSandbox,
      ...repositoryOptions,
    });

    this.options.onStage?.('git_clone');
    await mkdir(this.workspaceDir, { recursive: true });
    const gitLog = path.join(this.logDir, 'git.log');
    const prepared = await prepareWorkspace({ repoUrl: this.loaded.repoUrl, commit: this.task.repo.commit, workspaceDir: this.workspaceDir, logFile: gitLog, ...repositoryOptions });
    this.artifact('workspace', this.workspaceDir);
    this.artifact('git_log', gitLog);
    const repoPath = path.relative(this.workspaceDir, prepared.repoDir).split(path.sep).join('/') || '.';
    this.throwIfAborted();

    this.options.onStage?.('setup');
    this.sandbox = await this.timed(() => this.createSandbox(spec));
    const sandbox = this.timedSandbox(this.sandbox);
    const setupFailure = await runSetupCommands({
      sandbox,
      task: this.task,
      repoPath,
      onResult: (result) => {
        if (result.logPath !== undefined) this.artifact(`${path.basename(result.logPath, '.log')}_log`, result.logPath);
      },
      ...(signal === undefined ? {} : { signal }),
    });
    if (setupFailure !== undefined) throw new AttemptStop(setupFailure.failureReason, setupFailure.message, setupFailure.exitCode);
    if (commands.length > 0) await this.timed(() => sandbox.setNetwork(false));
    this.throwIfAborted();

    // The post-setup state the agent's diff is taken from.
    this.snapshots = await WorkTreeSnapshots.create({
      gitDir: snapshotGitDirectory(this.workspaceDir),
      sourceGitDir: prepared.sourceGitDir,
      commitSha: prepared.commitSha,
      workTree: prepared.repoDir,
      logFile: gitLog,
      ...(signal === undefined ? {} : { signal }),
    });
    const afterSetup = await this.snapshots.snapshot();

    this.options.onStage?.('agent_run');
    const tools = createToolSet({
      sandbox,
      root: path.posix.join(sandbox.workdir, repoPath),
      artifactsDir: this.runDir,
      defaultRunTimeoutSec: environment.timeout_sec,
      ...(this.options.strictPatch === undefined ? {} : { isStrictPatch: this.options.strictPatch }),
    });
    const eventsFile = path.join(this.runDir, 'events.jsonl');
    const eventLogger = new EventLogger({ runId: this.runId, file: eventsFile, ...(this.options.onEvent === undefined ? {} : { onEvent: this.options.onEvent }) });
    this.artifact('events', eventsFile);
    try {
      this.loopResult = await runAgentLoop({
        sandbox,
        tools,
        agent: this.agent,
        task: this.loaded,
        limits: this.limits,
        artifactsDir: this.runDir,
        eventLogger,
        repoPath,
        toolDefinitions: toLlmToolDefinitions(tools.definitions()),
        variant: this.variant,
        ...(signal === undefined ? {} : { signal }),
      });
    } finally {
      eventLogger.close();
    }
    const loop = this.loopResult;
    if (loop.patches.length > 0) this.artifact('diffs', path.join(this.runDir, 'diffs'));
    const messagesFile = path.join(this.runDir, 'llm_messages.jsonl');
    if (await exists(messagesFile)) this.artifact('llm_messages', messagesFile);
    if (loop.stopReason === 'INTERRUPTED') throw new AttemptStop('INTERRUPTED', 'interrupted during the agent run');

    // Nothing of the agent's sandbox reaches the verdict but its diff: the sandbox goes first, so
    // no process of the agent's is left to change the tree while host git reads it.
    this.options.onStage?.('final_test');
    await this.disposeSandbox();
    const finalStarted = performance.now();
    const final = await this.snapshots.snapshot();
    const verdict = await this.verdict.judge({ snapshots: this.snapshots, afterSetupTree: afterSetup.tree, finalTree: final.tree });
    this.recordVerdict(verdict, final.skippedLargeFiles, performance.now() - finalStarted);
    return `${verdict.message}; the agent loop stopped with ${loop.stopReason}: ${loop.message}`;
  }

  /** The sandbox is gone: its workspace is made safe to keep, and kept while the run's budget allows. */
  private async keepWorkspace(): Promise<void> {
    if (this.artifacts['workspace'] === undefined) return;
    const budget = this.options.artifactBudget ?? new ArtifactBudget();
    const kept = await keepSandboxWorkspace({ workspaceDir: this.workspaceDir, runDir: this.runDir, budget, label: this.task.id });
    if (kept.manifest !== undefined) this.artifacts['workspace_manifest'] = kept.manifest;
    if (!kept.isKept) delete this.artifacts['workspace'];
    if (kept.note !== undefined) this.notes.push(kept.note);
  }

  private recordVerdict(verdict: VerdictOutcome, skippedLargeFiles: readonly string[], stageMs: number): void {
    this.finalVerdict = verdict;
    this.finalExitCode = verdict.exitCode;
    this.finalPassed = verdict.passed;
    this.verdictMs = stageMs;
    for (const [name, file] of Object.entries(verdict.artifacts)) this.artifact(name, file);
    if (skippedLargeFiles.length > 0) this.notes.push(`left out of the agent's diff (over the size limit): ${skippedLargeFiles.slice(0, 5).join(', ')}`);
  }

  /** The reason of a failed attempt once the agent ran: the stop reason and the final tests, the root cause first. */
  private agentFailureReason(): FailureReason {
    const stopReason: StopReason | undefined = this.loopResult?.stopReason;
    const candidates: (FailureReason | null)[] = [];
    if (stopReason !== undefined && stopReason !== 'SUCCESS') candidates.push(failureReasonForStage({ stage: 'agent_run', stopReason }));
    if (this.finalVerdict !== undefined) candidates.push(this.finalVerdict.failureReason);
    return pickFailureReason(candidates.filter((reason): reason is FailureReason => reason !== null)) ?? 'TESTS_FAILED';
  }

  private buildRecord(startedAt: Date, endedAt: Date, failureReason: FailureReason | null): AttemptRecord {
    const task = this.task;
    const loop = this.loopResult;
    const hasModel = this.agent.modelConfig !== undefined;
    const patchFiles = (loop?.patches ?? []).flatMap((patch) => (patch.patchPath === undefined ? [] : [patch.patchPath]));
    const artifactPaths = { ...this.artifacts };
    if (patchFiles.length > 0) artifactPaths['patch_files'] = patchFiles.join(',');
    return {
      schema_version: ATTEMPT_RECORD_SCHEMA_VERSION,
      run_id: this.runId,
      task_id: task.id,
      suite: task.suite,
      timestamp_start: startedAt.toISOString(),
      timestamp_end: endedAt.toISOString(),
      duration_sec: Math.max(0, (endedAt.getTime() - startedAt.getTime()) / 1000),
      baseline_validation: this.baseline,
      result: {
        passed: failureReason === null && this.finalPassed,
        exit_code: this.finalExitCode ?? -1,
        failure_reason: failureReason === null && !this.finalPassed ? 'TESTS_FAILED' : failureReason,
        stop_reason: loop?.stopReason ?? null,
        ...(this.finalVerdict === undefined || this.finalVerdict.tamperedPaths.length === 0 ? {} : { tampered_paths: this.finalVerdict.tamperedPaths }),
      },
      artifact_paths: artifactPaths,
      variant: this.variant,
      model: this.agent.modelConfig ?? null,
      limits: { timeout_sec: task.environment.timeout_sec, tool_timeout_sec: null, max_steps: this.limits.maxSteps, max_time_sec: this.limits.maxTimeSec },
      metrics: {
        steps: loop?.steps ?? 0,
        tool_calls: loop?.steps ?? 0,
        // A scripted agent has no model: its token and cost figures are absent, not zero.
        input_tokens: hasModel && loop !== undefined ? loop.tokens.input : null,
        output_tokens: hasModel && loop !== undefined ? loop.tokens.output : null,
        cost_usd: loop?.costUsd ?? null,
        sandbox_time_ms: Math.round(this.sandboxMs),
        ...(this.verdictMs === undefined ? {} : { final_test_ms: Math.round(this.verdictMs) }),
      },
      task_spec_version: task.task_spec_version,
      harness_min_version: task.harness_min_version ?? null,
      labels: [...task.labels],
      truncated_logs: this.truncatedLogs.list(),
    };
  }

  private async timed<T>(action: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await action();
    } finally {
      this.sandboxMs += performance.now() - started;
    }
  }

  /** The same sandbox, adding the time of every call to `sandbox_time_ms`. */
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

  private throwIfAborted(): void {
    if (this.options.signal?.aborted === true) throw new AttemptStop('INTERRUPTED', 'interrupted');
  }

  private artifact(name: string, file: string): void {
    this.artifacts[name] = relative(this.runDir, file);
  }

  private async disposeSandbox(): Promise<void> {
    const sandbox = this.sandbox;
    this.sandbox = undefined;
    if (sandbox !== undefined) await this.timed(() => sandbox.dispose());
  }

  private async writeErrorLog(error: unknown): Promise<void> {
    const file = path.join(this.logDir, 'error.txt');
    const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    try {
      await writeFile(file, `${text}\n`);
      this.artifact('error', file);
    } catch {
      // The record still carries the reason.
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
