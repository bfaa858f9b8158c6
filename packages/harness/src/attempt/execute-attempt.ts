import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ATTEMPT_RECORD_SCHEMA_VERSION, type AttemptRecord, type FailureReason, type LoadedTask } from '@agentbench/schemas';
import { type ExecResult, type Sandbox, type SandboxSpec } from '@agentbench/sandbox';
import { failureReasonForError, failureReasonForStage, type KilledBy } from '@agentbench/scoring';
import { AttemptInterruptedError } from '../errors/attempt-interrupted-error.js';
import { ArtifactBudget } from '../artifacts/artifact-budget.js';
import { keepSandboxWorkspace } from '../artifacts/keep-sandbox-workspace.js';
import { RepositoryError } from '../errors/repository-error.js';
import type { MirrorRule } from '../git/mirror-map.js';
import { prepareWorkspace, type PreparedWorkspace } from '../git/prepare-workspace.js';
import type { RepoCache } from '../git/repo-cache.js';
import { WorkTreeSnapshots, type ChangedPath } from '../git/work-tree-snapshots.js';
import { excludingPathspecs, protectedPathspecs } from '../verdict/protected-pathspecs.js';
import { describeExit, runSetupCommands } from '../setup/run-setup-commands.js';
import { checkBaselineExpectations, type BaselineMismatch } from '../validation/check-baseline-expectations.js';
import { parsePytestFailures } from '../validation/parse-pytest-failures.js';
import { relativeToRun, snapshotGitDirectory, type AttemptPaths } from './attempt-paths.js';
import { maxOutputBytesFor, TruncatedLogs } from './output-limits.js';
import { createDockerSandbox, type SandboxFactory } from './sandbox-factory.js';

/** `baseline`: the tests must fail (validate_baseline). `task`: run the tests and report them (run_task). */
export type AttemptMode = 'baseline' | 'task';

export type AttemptStage = 'git_clone' | 'git_checkout' | 'setup' | 'post_setup_check' | 'baseline_run' | 'baseline_rerun' | 'final_test';

/** When a valid baseline is run a second time to detect flakiness. */
export type FlakyRerunPolicy = 'auto' | 'always' | 'never';

/** `auto` reruns when the first run took at most this share of `timeout_sec`. */
export const DEFAULT_RERUN_BUDGET_FRACTION = 0.25;

/** Bytes of stdout and of stderr of the test command kept for the checks (the full output is in the log). */
const TEST_OUTPUT_CAP_BYTES = 8 * 1024 * 1024;

export interface AttemptOptions {
  paths: AttemptPaths;
  /** Run id: stored in the record and on the container's labels. */
  runId: string;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  createSandbox?: SandboxFactory;
  /** Aborting stops the attempt: the running command is killed, the sandbox removed, the outcome is INTERRUPTED. */
  signal?: AbortSignal;
  onStage?: (stage: AttemptStage) => void;
  /** Baseline only. Default `auto`. */
  flakyRerun?: FlakyRerunPolicy;
  /** Baseline only, for `auto`. Default 0.25. */
  rerunBudgetFraction?: number;
  /** Extra environment variables of every command in the sandbox. */
  env?: Record<string, string>;
  /** The run's budget for kept workspaces (one per run). Default: a budget of its own (1 GiB). */
  artifactBudget?: ArtifactBudget;
  /** Bytes of stdout and of stderr each command's log keeps (`--max-output-bytes`). Default: the task's `environment.max_output_bytes`, else 10 MiB. */
  maxOutputBytes?: number;
}

/** What one stage did. Paths are relative to the run directory. */
export interface StageReport {
  stage: AttemptStage;
  durationMs: number;
  command?: string;
  exitCode?: number;
  timedOut?: boolean;
  failureReason?: FailureReason | null;
  log?: string;
  /** The log dropped output at the cap (`maxOutputBytes`). */
  logTruncated?: boolean;
}

export interface AttemptTimings {
  totalMs: number;
  /** Time spent inside Sandbox calls: create, exec, setNetwork, dispose. */
  sandboxMs: number;
  /** Time spent in git on the host (clone, checkout, status). */
  gitMs: number;
}

export interface AttemptOutcome {
  record: AttemptRecord;
  failureReason: FailureReason | null;
  /** baseline: the task is valid (its tests fail as they should); task: the tests passed. */
  isSuccess: boolean;
  /** The stage that decided the outcome. */
  stage: AttemptStage;
  /** One line for people: why the attempt ended as it did. */
  message: string;
  stages: StageReport[];
  mismatches: BaselineMismatch[];
  /** Failing test ids parsed from the (first) test run. */
  failingTests: string[];
  /** Each setup command as written and as run (after pip normalisation). */
  setupCommands: Array<{ written: string; run: string }>;
  commitSha?: string;
  repositorySource?: string;
  /** What became of the workspace when it was not kept whole (over the budget, cleaned). */
  workspaceNote?: string;
  timings: AttemptTimings;
}

/** Ends the attempt early with a recorded reason (not an error of ours). */
class AttemptStop {
  constructor(
    readonly failureReason: FailureReason,
    readonly message: string,
    readonly exitCode?: number,
  ) {}
}

// The sandbox and the taxonomy name who killed a command the same way.
function killedByOf(result: ExecResult): KilledBy | null {
  return result.killedBy ?? null;
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  const sortedLeft = [...left].sort();
  const sortedRight = [...right].sort();
  return sortedLeft.length === sortedRight.length && sortedLeft.every((value, index) => value === sortedRight[index]);
}

/**
 * Runs one attempt of a task: clone and pin the repository, run setup in a fresh sandbox with
 * network, check the work tree, cut the network, run the test command, and judge the result
 * by `mode`. Never throws for a failing task: every way it can end becomes an AttemptOutcome
 * with a FailureReason (our own bugs become INTERNAL_ERROR, with the stack in `error.txt`).
 * The sandbox is always removed before this returns.
 */
export async function executeAttempt(loaded: LoadedTask, mode: AttemptMode, options: AttemptOptions): Promise<AttemptOutcome> {
  return new AttemptExecution(loaded, mode, options).run();
}

class AttemptExecution {
  private readonly task: LoadedTask['task'];
  private readonly paths: AttemptPaths;
  private readonly artifacts: Record<string, string> = {};
  private readonly stages: StageReport[] = [];
  private readonly setupCommands: Array<{ written: string; run: string }> = [];
  private mismatches: BaselineMismatch[] = [];
  private failingTests: string[] = [];
  private currentStage: AttemptStage = 'git_clone';
  private sandbox: Sandbox | undefined;
  private sandboxMs = 0;
  private gitMs = 0;
  private testExitCode: number | undefined;
  private lastExitCode: number | undefined;
  private commitSha: string | undefined;
  private repositorySource: string | undefined;
  private workspaceNote: string | undefined;
  private readonly maxOutputBytes: number;
  private readonly truncatedLogs: TruncatedLogs;

  constructor(
    private readonly loaded: LoadedTask,
    private readonly mode: AttemptMode,
    private readonly options: AttemptOptions,
  ) {
    this.task = loaded.task;
    this.paths = options.paths;
    this.maxOutputBytes = maxOutputBytesFor(this.task, options.maxOutputBytes);
    this.truncatedLogs = new TruncatedLogs(this.paths.runDir);
  }

  async run(): Promise<AttemptOutcome> {
    const startedAt = new Date();
    const started = performance.now();
    let failureReason: FailureReason | null = null;
    let message: string;
    try {
      await rm(this.paths.workspaceDir, { recursive: true, force: true });
      await rm(this.paths.logDir, { recursive: true, force: true });
      await mkdir(this.paths.logDir, { recursive: true });
      await mkdir(this.paths.workspaceDir, { recursive: true });
      this.artifact('logs', this.paths.logDir);
      this.artifact('workspace', this.paths.workspaceDir);
      message = await this.stagesInOrder();
    } catch (error) {
      if (error instanceof AttemptStop) {
        failureReason = error.failureReason;
        message = error.message;
        if (error.exitCode !== undefined) this.lastExitCode = error.exitCode;
      } else if (this.options.signal?.aborted === true || AttemptInterruptedError.isInstance(error)) {
        failureReason = 'INTERRUPTED';
        message = `interrupted during ${this.currentStage}`;
      } else {
        failureReason = failureReasonForError(error);
        message = error instanceof Error ? error.message : String(error);
        if (!RepositoryError.isInstance(error)) await this.writeErrorLog(error);
      }
    }
    try {
      await this.disposeSandbox();
    } catch (error) {
      // The attempt's own outcome stands; a removal failure only matters when all else went well.
      if (failureReason === null) {
        failureReason = failureReasonForError(error);
        message = `cannot remove the sandbox: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    await this.keepWorkspace();
    const endedAt = new Date();
    const totalMs = performance.now() - started;
    const isSuccess = failureReason === null;
    const record = this.buildRecord({ startedAt, endedAt, failureReason, isSuccess });
    const outcome: AttemptOutcome = {
      record,
      failureReason,
      isSuccess,
      stage: this.currentStage,
      message,
      stages: this.stages,
      mismatches: this.mismatches,
      failingTests: this.failingTests,
      setupCommands: this.setupCommands,
      timings: { totalMs, sandboxMs: this.sandboxMs, gitMs: this.gitMs },
    };
    if (this.commitSha !== undefined) outcome.commitSha = this.commitSha;
    if (this.repositorySource !== undefined) outcome.repositorySource = this.repositorySource;
    if (this.workspaceNote !== undefined) outcome.workspaceNote = this.workspaceNote;
    await this.writeDetails(outcome).catch(() => undefined);
    return outcome;
  }

  /** Returns the success message; throws AttemptStop (or an error) otherwise. */
  private async stagesInOrder(): Promise<string> {
    const { signal } = this.options;
    const environment = this.task.environment;
    const commands = this.task.setup.commands;
    this.throwIfAborted();

    // The container starts while git fetches: neither needs the other until setup runs.
    const spec: SandboxSpec = {
      image: environment.docker_image,
      workdir: environment.workdir,
      mountWorkspace: path.resolve(this.paths.workspaceDir),
      hasNetwork: commands.length > 0,
      labels: { runId: this.options.runId, taskId: this.task.id },
      defaultTimeoutSec: environment.timeout_sec,
      logDir: this.paths.logDir,
      logCapBytes: this.maxOutputBytes,
    };
    if (this.options.env !== undefined) spec.env = this.options.env;
    const createSandbox = this.options.createSandbox ?? createDockerSandbox;
    const creating = this.timed(() => createSandbox(spec)).then((sandbox) => {
      this.sandbox = sandbox;
      return sandbox;
    });
    // Its failure is reported after git's, which says more; until then nobody awaits it.
    creating.catch(() => undefined);

    const gitLog = path.join(this.paths.logDir, 'git.log');
    this.artifact('git_log', gitLog);
    const gitStarted = performance.now();
    let stageStarted = performance.now();
    let prepared: PreparedWorkspace;
    try {
      prepared = await prepareWorkspace({
        repoUrl: this.loaded.repoUrl,
        commit: this.task.repo.commit,
        workspaceDir: this.paths.workspaceDir,
        mirrors: this.options.mirrors ?? [],
        ...(this.options.cache === undefined ? {} : { cache: this.options.cache }),
        ...(signal === undefined ? {} : { signal }),
        logFile: gitLog,
        onStage: (stage) => {
          if (stage === 'git_checkout') {
            this.stages.push({ stage: 'git_clone', durationMs: performance.now() - stageStarted });
            stageStarted = performance.now();
          }
          this.enterStage(stage);
        },
      });
    } catch (error) {
      // Wait for the container, so that `finally` removes it.
      await creating.catch(() => undefined);
      throw error;
    }
    this.stages.push({ stage: 'git_checkout', durationMs: performance.now() - stageStarted });
    this.gitMs += performance.now() - gitStarted;
    this.commitSha = prepared.commitSha;
    this.repositorySource = prepared.source;

    this.enterStage('setup');
    await creating;
    this.throwIfAborted();

    const sandbox = this.sandbox as Sandbox;
    const setupFailure = await this.timed(() =>
      runSetupCommands({
        sandbox,
        task: this.task,
        repoPath: 'repo',
        ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
        onResult: (result, { written, run, failureReason }) => {
          this.setupCommands.push({ written, run });
          if (result.logPath !== undefined) this.artifact(`${path.basename(result.logPath, '.log')}_log`, result.logPath);
          this.truncatedLogs.note(result);
          this.stages.push({ stage: 'setup', durationMs: result.durationMs, command: run, exitCode: result.exitCode, timedOut: result.timedOut, failureReason, ...this.logOf(result) });
          this.lastExitCode = result.exitCode;
        },
      }),
    );
    if (setupFailure?.failureReason === 'INTERRUPTED') throw new AttemptInterruptedError('setup');
    if (setupFailure !== undefined) throw new AttemptStop(setupFailure.failureReason, setupFailure.message, setupFailure.exitCode);

    this.enterStage('post_setup_check');
    await this.checkWorkTree(prepared);
    if (commands.length > 0) await this.timed(() => (this.sandbox as Sandbox).setNetwork(false));
    this.throwIfAborted();

    return this.mode === 'baseline' ? this.runBaseline() : this.runTests();
  }

  private async runBaseline(): Promise<string> {
    const environment = this.task.environment;
    const validation = this.task.validation;
    this.enterStage('baseline_run');
    const result = await this.exec(this.task.run.command, 'run', TEST_OUTPUT_CAP_BYTES);
    this.testExitCode = result.exitCode;
    this.lastExitCode = result.exitCode;
    const output = `${result.stdout}\n${result.stderr}`;
    this.failingTests = parsePytestFailures(output).all;
    let reason = failureReasonForStage({ stage: 'baseline_run', exitCode: result.exitCode, timedOut: result.timedOut, killedBy: killedByOf(result) });
    // A task may declare that its test command fails with an exit code pytest reserves for other uses.
    const isDeclaredExit = validation?.expected_exit_codes?.includes(result.exitCode) === true && !result.timedOut && result.killedBy === undefined;
    if (isDeclaredExit && (reason === 'NO_TESTS_COLLECTED' || reason === 'INTERNAL_ERROR')) reason = null;
    this.stages.push({ stage: 'baseline_run', durationMs: result.durationMs, command: this.task.run.command, exitCode: result.exitCode, timedOut: result.timedOut, failureReason: reason, ...this.logOf(result) });
    if (reason !== null) {
      const why = reason === 'BASELINE_NOT_FAILING' ? 'the tests passed before any change (exit 0); a baseline must fail' : `the test command ${describeExit(result, environment.timeout_sec)}`;
      throw new AttemptStop(reason, why, result.exitCode);
    }
    this.mismatches = checkBaselineExpectations(validation, { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
    if (this.mismatches.length > 0) {
      const file = path.join(this.paths.logDir, 'baseline_mismatch.txt');
      await writeFile(file, `${this.mismatches.map((mismatch) => `${mismatch.field}: ${mismatch.message}`).join('\n')}\n`);
      this.artifact('baseline_mismatch', file);
      const first = this.mismatches[0] as BaselineMismatch;
      const more = this.mismatches.length > 1 ? ` (and ${this.mismatches.length - 1} more)` : '';
      throw new AttemptStop('BASELINE_MISMATCH', `${first.field}: ${first.message}${more}`, result.exitCode);
    }

    const policy = this.options.flakyRerun ?? 'auto';
    const budgetMs = environment.timeout_sec * 1000 * (this.options.rerunBudgetFraction ?? DEFAULT_RERUN_BUDGET_FRACTION);
    const shouldRerun = policy === 'always' || (policy === 'auto' && result.durationMs <= budgetMs);
    const failingSummary = `${this.failingTests.length} failing test${this.failingTests.length === 1 ? '' : 's'}`;
    if (!shouldRerun) {
      return `the tests fail as expected (exit ${result.exitCode}, ${failingSummary}); not rerun: the first run took ${Math.round(result.durationMs)} ms`;
    }
    this.enterStage('baseline_rerun');
    const rerun = await this.exec(this.task.run.command, 'run_rerun', TEST_OUTPUT_CAP_BYTES);
    const rerunFailing = parsePytestFailures(`${rerun.stdout}\n${rerun.stderr}`).all;
    const isInterrupted = rerun.killedBy === 'abort';
    this.stages.push({ stage: 'baseline_rerun', durationMs: rerun.durationMs, command: this.task.run.command, exitCode: rerun.exitCode, timedOut: rerun.timedOut, ...this.logOf(rerun) });
    if (isInterrupted) throw new AttemptInterruptedError('baseline_rerun');
    const isSame = rerun.exitCode === result.exitCode && sameList(rerunFailing, this.failingTests);
    if (!isSame) {
      const file = path.join(this.paths.logDir, 'baseline_rerun_comparison.txt');
      await writeFile(
        file,
        [
          `run_1_exit_code: ${result.exitCode}`,
          `run_1_failing_tests: ${this.failingTests.join(' ') || '(none)'}`,
          `run_2_exit_code: ${rerun.exitCode}`,
          `run_2_failing_tests: ${rerunFailing.join(' ') || '(none)'}`,
          '',
        ].join('\n'),
      );
      this.artifact('baseline_rerun_comparison', file);
      this.lastExitCode = rerun.exitCode;
      throw new AttemptStop(
        'BASELINE_FLAKY',
        `a second run of the tests gave a different result (exit ${result.exitCode} then ${rerun.exitCode}; failing tests ${this.failingTests.length} then ${rerunFailing.length})`,
        rerun.exitCode,
      );
    }
    return `the tests fail as expected (exit ${result.exitCode}, ${failingSummary}), twice alike`;
  }

  private async runTests(): Promise<string> {
    const environment = this.task.environment;
    // What ran where, for reproducing the run; its failure changes nothing.
    const probe = await this.exec('uname -a; python3 -VV || python -VV; python3 -m pip --version; python3 -m pytest --version; true', 'environment');
    this.stages.push({ stage: 'post_setup_check', durationMs: probe.durationMs, command: 'environment', exitCode: probe.exitCode, ...this.logOf(probe) });
    this.throwIfAborted();
    this.enterStage('final_test');
    const result = await this.exec(this.task.run.command, 'run', TEST_OUTPUT_CAP_BYTES);
    this.testExitCode = result.exitCode;
    this.lastExitCode = result.exitCode;
    this.failingTests = parsePytestFailures(`${result.stdout}\n${result.stderr}`).all;
    const reason = failureReasonForStage({ stage: 'final_test', exitCode: result.exitCode, timedOut: result.timedOut, killedBy: killedByOf(result) });
    this.stages.push({ stage: 'final_test', durationMs: result.durationMs, command: this.task.run.command, exitCode: result.exitCode, timedOut: result.timedOut, failureReason: reason, ...this.logOf(result) });
    if (reason !== null) {
      const failing = this.failingTests.length > 0 ? ` (${this.failingTests.length} failing)` : '';
      throw new AttemptStop(reason, `the test command ${describeExit(result, environment.timeout_sec)}${failing}`, result.exitCode);
    }
    return 'the tests passed (exit 0)';
  }

  /**
   * `git status` must be empty after setup unless `enforce_clean_setup: false`; status and diff
   * are kept either way. Changes to protected paths (the task's tests) are the task's and not counted. Read by host git with the harness's own git directory (the work tree
   * and its `.git` are sandbox-written: nothing in them is run or read as configuration).
   */
  private async checkWorkTree(prepared: PreparedWorkspace): Promise<void> {
    const started = performance.now();
    const snapshots = await WorkTreeSnapshots.create({
      gitDir: snapshotGitDirectory(this.paths.workspaceDir),
      sourceGitDir: prepared.sourceGitDir,
      commitSha: prepared.commitSha,
      workTree: prepared.repoDir,
      logFile: path.join(this.paths.logDir, 'git.log'),
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
    });
    let changed: ChangedPath[];
    let diff: string;
    try {
      const afterSetup = await snapshots.snapshot();
      // Setup may put the task's own tests in place (SWE-bench applies its test patch): protected paths are the task's.
      const pathspecs = excludingPathspecs(protectedPathspecs(this.task));
      changed = await snapshots.changedPaths(prepared.commitSha, afterSetup.tree, pathspecs);
      diff = changed.length === 0 ? '' : (await snapshots.diff(prepared.commitSha, afterSetup.tree, pathspecs)).toString('utf8');
    } finally {
      await snapshots.remove();
    }
    const status = changed.map((entry) => `${entry.status} ${entry.path}\n`).join('');
    this.gitMs += performance.now() - started;
    const statusFile = path.join(this.paths.logDir, 'post_setup_status.txt');
    const diffFile = path.join(this.paths.logDir, 'post_setup_diff.patch');
    await writeFile(statusFile, status);
    await writeFile(diffFile, diff);
    this.artifact('post_setup_status', statusFile);
    this.artifact('post_setup_diff', diffFile);
    this.stages.push({ stage: 'post_setup_check', durationMs: performance.now() - started, log: relativeToRun(this.paths.runDir, statusFile) });
    const isEnforced = this.task.validation?.enforce_clean_setup ?? true;
    if (changed.length > 0 && isEnforced && this.mode === 'baseline') {
      const shown = changed.slice(0, 5).map((entry) => `${entry.status} ${entry.path}`).join(', ');
      throw new AttemptStop(
        'SETUP_DIRTY_WORKTREE',
        `setup changed the work tree (${changed.length} path${changed.length === 1 ? '' : 's'}: ${shown}${changed.length > 5 ? ', ...' : ''}); set validation.enforce_clean_setup: false to allow it`,
      );
    }
  }

  private async exec(command: string, logName: string, outputCapBytes?: number): Promise<ExecResult> {
    const sandbox = this.sandbox as Sandbox;
    const result = await this.timed(() =>
      sandbox.exec(command, {
        cwd: 'repo',
        timeoutSec: this.task.environment.timeout_sec,
        logName,
        ...(outputCapBytes === undefined ? {} : { outputCapBytes }),
        ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
      }),
    );
    if (result.logPath !== undefined) this.artifact(`${logName}_log`, result.logPath);
    this.truncatedLogs.note(result);
    if (result.killedBy === 'abort') throw new AttemptInterruptedError(this.currentStage);
    return result;
  }

  private logOf(result: ExecResult): { log?: string; logTruncated?: boolean } {
    if (result.logPath === undefined) return {};
    return { log: relativeToRun(this.paths.runDir, result.logPath), ...(result.logTruncated === true ? { logTruncated: true } : {}) };
  }

  private async timed<T>(action: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await action();
    } finally {
      this.sandboxMs += performance.now() - started;
    }
  }

  private throwIfAborted(): void {
    if (this.options.signal?.aborted === true) throw new AttemptInterruptedError(this.currentStage);
  }

  private enterStage(stage: AttemptStage): void {
    this.currentStage = stage;
    this.options.onStage?.(stage);
  }

  private artifact(name: string, file: string): void {
    this.artifacts[name] = relativeToRun(this.paths.runDir, file);
  }

  /** The sandbox is gone: its workspace is made safe to keep, and kept while the run's budget allows. */
  private async keepWorkspace(): Promise<void> {
    const budget = this.options.artifactBudget ?? new ArtifactBudget();
    const kept = await keepSandboxWorkspace({ workspaceDir: this.paths.workspaceDir, runDir: this.paths.runDir, budget, label: this.task.id });
    if (kept.manifest !== undefined) this.artifacts['workspace_manifest'] = kept.manifest;
    if (!kept.isKept) delete this.artifacts['workspace'];
    if (kept.note !== undefined) this.workspaceNote = kept.note;
  }

  private async disposeSandbox(): Promise<void> {
    const sandbox = this.sandbox;
    if (sandbox === undefined) return;
    this.sandbox = undefined;
    await this.timed(() => sandbox.dispose());
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

  private async writeDetails(outcome: AttemptOutcome): Promise<void> {
    const file = path.join(this.paths.logDir, 'attempt.json');
    const details = {
      task_id: this.task.id,
      task_file: this.loaded.file,
      mode: this.mode,
      failure_reason: outcome.failureReason,
      stage: outcome.stage,
      message: outcome.message,
      repository: { url: this.loaded.repoUrl, commit: this.task.repo.commit, commit_sha: outcome.commitSha ?? null, source: outcome.repositorySource ?? null },
      setup_commands: outcome.setupCommands,
      stages: outcome.stages.map((stage) => ({ ...stage, durationMs: Math.round(stage.durationMs) })),
      mismatches: outcome.mismatches,
      failing_tests: outcome.failingTests,
      ...(outcome.workspaceNote === undefined ? {} : { workspace_note: outcome.workspaceNote }),
      timings_ms: { total: Math.round(outcome.timings.totalMs), sandbox: Math.round(outcome.timings.sandboxMs), git: Math.round(outcome.timings.gitMs) },
    };
    await writeFile(file, `${JSON.stringify(details, null, 2)}\n`);
    outcome.record.artifact_paths['attempt_details'] = relativeToRun(this.paths.runDir, file);
  }

  private buildRecord(input: { startedAt: Date; endedAt: Date; failureReason: FailureReason | null; isSuccess: boolean }): AttemptRecord {
    const { task } = this;
    const isBaseline = this.mode === 'baseline';
    return {
      schema_version: ATTEMPT_RECORD_SCHEMA_VERSION,
      run_id: this.options.runId,
      task_id: task.id,
      suite: task.suite,
      timestamp_start: input.startedAt.toISOString(),
      timestamp_end: input.endedAt.toISOString(),
      duration_sec: Math.max(0, (input.endedAt.getTime() - input.startedAt.getTime()) / 1000),
      baseline_validation: {
        attempted: isBaseline,
        failed_as_expected: isBaseline && input.isSuccess,
        exit_code: isBaseline ? (this.testExitCode ?? null) : null,
        failure_reason: isBaseline ? input.failureReason : null,
      },
      result: {
        passed: input.isSuccess,
        exit_code: this.lastExitCode ?? -1,
        failure_reason: input.failureReason,
        stop_reason: null,
      },
      artifact_paths: { ...this.artifacts },
      variant: isBaseline ? 'baseline' : 'run_task',
      model: null,
      limits: { timeout_sec: task.environment.timeout_sec, tool_timeout_sec: null, max_steps: null, max_time_sec: null },
      metrics: { sandbox_time_ms: Math.round(this.sandboxMs) },
      task_spec_version: task.task_spec_version,
      harness_min_version: task.harness_min_version ?? null,
      labels: [...task.labels],
      truncated_logs: this.truncatedLogs.list(),
    };
  }
}
