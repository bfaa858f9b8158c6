import { mkdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ExecOptions, ExecResult, Sandbox, SandboxSnapshot, SandboxSpec } from '@agentbench/sandbox';
import type { FailureReason, LoadedTask, VerdictBasis } from '@agentbench/schemas';
import { failureReasonForStage } from '@agentbench/scoring';
import type { MirrorRule } from '../git/mirror-map.js';
import { prepareWorkspace } from '../git/prepare-workspace.js';
import type { RepoCache } from '../git/repo-cache.js';
import type { WorkTreeSnapshots } from '../git/work-tree-snapshots.js';
import { runSetupCommands, type SetupCommandFailure } from '../setup/run-setup-commands.js';
import { judgeNamedTests, type NamedTests } from '../test-report/judge-named-tests.js';
import { UnreadableTestReport } from '../test-report/junit-report.js';
import { readTestReport, removeTestReport, type ReportCommandRunner } from '../test-report/read-test-report.js';
import { namedTestsOf, testReportSourceFor } from '../test-report/test-report-source.js';
import { excludingPathspecs, protectedPathspecs } from './protected-pathspecs.js';

export interface FinalVerdictOptions {
  loaded: LoadedTask;
  /** `<runDir>/verdict/` holds its logs, the diffs and (while it runs) its workspace. */
  verdictDir: string;
  /** The attempt's sandbox spec; the verdict's sandbox is the same but for its workspace and logs. */
  spec: SandboxSpec;
  /** With `snapshot`: the snapshot's own (`SandboxSnapshot.createSandbox`), wrapped as the caller needs. */
  createSandbox: (spec: SandboxSpec) => Promise<Sandbox>;
  mirrors?: readonly MirrorRule[];
  cache?: RepoCache;
  signal?: AbortSignal;
  /**
   * The attempt's own post-setup state, taken before the agent ran: the verdict's sandbox starts
   * from it (`<verdictDir>/workspace` already holds the copy of the work tree) and does not run
   * setup again; `repoPath` is the repository's folder in it. The image is removed by `dispose`,
   * after the sandbox. Absent: a fresh clone and a second setup.
   */
  snapshot?: { image: SandboxSnapshot; repoPath: string };
}

/** How the verdict's sandbox got its post-setup state: the attempt's snapshot, or setup run a second time. */
export type VerdictSetup = 'snapshot' | 'rerun';

export interface VerdictInput {
  snapshots: WorkTreeSnapshots;
  /** The agent's work tree right after setup, and when the agent stopped. */
  afterSetupTree: string;
  finalTree: string;
  /** Report keys of the tests that passed in the baseline's report: PASS_TO_PASS when the task names none. */
  baselinePassingKeys?: readonly string[];
}

export interface VerdictOutcome {
  /** Null when the tests passed and nothing protected was touched. */
  failureReason: FailureReason | null;
  passed: boolean;
  exitCode: number;
  message: string;
  tamperedPaths: string[];
  /** `named_tests`: the task's named tests in the harness's report decided; `exit_code`: the test command's exit code did. */
  basis: VerdictBasis;
  /** Files written (absolute): `agent.patch` (what was applied), `tampered.patch` (what was dropped), the test log. */
  artifacts: Record<string, string>;
}

interface PreparedSandbox {
  sandbox?: Sandbox;
  repoPath: string;
  setupFailure?: SetupCommandFailure;
}

/**
 * The final test of an agent attempt, trusted because nothing the agent did can reach it but
 * its diff: a fresh sandbox starts from the attempt's post-setup snapshot (taken before the agent
 * ran), or, on a backend that cannot snapshot, is cloned at the pinned commit and set up (while
 * the agent works); then the agent's diff (post-setup state → final state, recorded by host git) is applied
 * without the protected paths, and the test command runs there. A diff that touched protected
 * paths fails the attempt as TESTS_TAMPERED unless the task allows test changes.
 */
export class FinalVerdict {
  private readonly preparing: Promise<PreparedSandbox>;
  private prepared: PreparedSandbox | undefined;

  private constructor(private readonly options: FinalVerdictOptions) {
    this.preparing = this.prepare();
    // Awaited by judge or dispose; until then its failure must not be unhandled.
    this.preparing.catch(() => undefined);
  }

  /** Starts preparing the fresh post-setup sandbox in the background. */
  static start(options: FinalVerdictOptions): FinalVerdict {
    return new FinalVerdict(options);
  }

  /** Whether the verdict's sandbox starts from the attempt's snapshot or runs setup again. */
  get setup(): VerdictSetup {
    return this.options.snapshot === undefined ? 'rerun' : 'snapshot';
  }

  private async prepare(): Promise<PreparedSandbox> {
    const { loaded, verdictDir, signal, snapshot } = this.options;
    const workspaceDir = path.join(verdictDir, 'workspace');
    const logDir = path.join(verdictDir, 'logs');
    await mkdir(logDir, { recursive: true });
    if (snapshot !== undefined) {
      const sandbox = await this.options.createSandbox({ ...this.options.spec, hasNetwork: false, mountWorkspace: path.resolve(workspaceDir), logDir });
      this.prepared = { sandbox, repoPath: snapshot.repoPath };
      return this.prepared;
    }
    const prepared = await prepareWorkspace({
      repoUrl: loaded.repoUrl,
      commit: loaded.task.repo.commit,
      workspaceDir,
      logFile: path.join(logDir, 'git.log'),
      ...(this.options.mirrors === undefined ? {} : { mirrors: this.options.mirrors }),
      ...(this.options.cache === undefined ? {} : { cache: this.options.cache }),
      ...(signal === undefined ? {} : { signal }),
    });
    const repoPath = path.relative(workspaceDir, prepared.repoDir).split(path.sep).join('/') || '.';
    const sandbox = await this.options.createSandbox({ ...this.options.spec, mountWorkspace: path.resolve(workspaceDir), logDir });
    const result: PreparedSandbox = { sandbox, repoPath };
    this.prepared = result;
    const setupFailure = await runSetupCommands({ sandbox, task: loaded.task, repoPath, logPrefix: 'verdict_', ...(signal === undefined ? {} : { signal }) });
    if (setupFailure !== undefined) return { ...result, setupFailure };
    if (loaded.task.setup.commands.length > 0) await sandbox.setNetwork(false);
    return result;
  }

  async judge(input: VerdictInput): Promise<VerdictOutcome> {
    const { task } = this.options.loaded;
    const { snapshots, afterSetupTree, finalTree } = input;
    const isTestChangeAllowed = task.evaluation?.allow_test_changes === true;
    const protectedPaths = protectedPathspecs(task);
    const tamperedPaths = (await snapshots.changedPaths(afterSetupTree, finalTree, protectedPaths)).map((entry) => entry.path);
    const applied = await snapshots.diff(afterSetupTree, finalTree, isTestChangeAllowed ? [] : excludingPathspecs(protectedPaths));
    const artifacts: Record<string, string> = {};
    const agentPatch = path.join(this.options.verdictDir, 'agent.patch');
    await writeFile(agentPatch, applied);
    artifacts['agent_patch'] = agentPatch;
    if (tamperedPaths.length > 0) {
      const tamperedPatch = path.join(this.options.verdictDir, 'tampered.patch');
      await writeFile(tamperedPatch, await snapshots.diff(afterSetupTree, finalTree, protectedPaths));
      artifacts['tampered_patch'] = tamperedPatch;
    }

    const prepared = await this.preparing;
    const sandbox = prepared.sandbox as Sandbox;
    const source = testReportSourceFor(task, sandbox.workdir, prepared.repoPath, randomNonce());
    const basis: VerdictBasis = source === undefined ? 'exit_code' : 'named_tests';
    const finish = (outcome: Omit<VerdictOutcome, 'tamperedPaths' | 'artifacts' | 'basis'>): VerdictOutcome => ({ ...outcome, basis, tamperedPaths, artifacts });
    if (prepared.setupFailure !== undefined) {
      const { failureReason, message, exitCode } = prepared.setupFailure;
      return finish({ failureReason, passed: false, exitCode, message: `the fresh sandbox of the final test: ${message}` });
    }
    if (applied.length > 0) {
      const apply = await this.exec(sandbox, ['git', '-c', 'core.hooksPath=/dev/null', 'apply', '--whitespace=nowarn', '-'], prepared.repoPath, 'verdict_apply', { stdin: applied });
      if (apply.exitCode !== 0) {
        const why = apply.exitCode === 127 ? 'the image has no git, which applies the diff' : (apply.stderr.trim().split('\n')[0] ?? `git apply exited with ${apply.exitCode}`);
        return finish({ failureReason: 'SETUP_FAILED', passed: false, exitCode: apply.exitCode, message: `the agent's diff does not apply to a fresh post-setup checkout (is setup reproducible?): ${why}` });
      }
    }
    const runReportCommand: ReportCommandRunner = (argv, logName, outputCapBytes) => this.exec(sandbox, argv, prepared.repoPath, logName, outputCapBytes === undefined ? {} : { outputCapBytes });
    if (source !== undefined) await removeTestReport(runReportCommand, source);
    const result = await this.exec(sandbox, task.run.command, prepared.repoPath, 'final_test', source === undefined ? {} : { env: source.env });
    if (result.logPath !== undefined) artifacts['final_test_log'] = result.logPath;
    const exitReason = failureReasonForStage({ stage: 'final_test', exitCode: result.exitCode, timedOut: result.timedOut, ...(result.killedBy === undefined ? {} : { killedBy: result.killedBy }) });
    const where = 'in a fresh sandbox with the agent’s diff';
    let testReason = exitReason;
    let testMessage = exitReason === null ? 'the tests pass' : result.timedOut ? `the tests timed out after ${task.environment.timeout_sec} s` : `the tests still fail (exit ${result.exitCode})`;
    // A run the sandbox ended (a timeout, a kill) keeps its reason; otherwise the named tests in the report decide, whatever the exit code says.
    const isEndedBySandbox = result.timedOut || result.killedBy !== undefined;
    if (source !== undefined && !isEndedBySandbox) {
      const report = await readTestReport(runReportCommand, source);
      if (report instanceof UnreadableTestReport) {
        testReason = 'TESTS_NOT_REPORTED';
        testMessage = `the tests did not report (exit ${result.exitCode}): ${report.reason}`;
      } else {
        const named = namedTestsOf(task);
        const tests: NamedTests = {
          style: source.style,
          failToPass: named.failToPass,
          ...(named.passToPass !== undefined ? { passToPass: { ids: named.passToPass } } : input.baselinePassingKeys !== undefined ? { passToPass: { keys: input.baselinePassingKeys } } : {}),
        };
        const judged = judgeNamedTests(report, tests);
        testReason = judged.failureReason;
        testMessage = judged.message;
      }
    }
    const passed = testReason === null;
    if (tamperedPaths.length > 0 && !isTestChangeAllowed) {
      const shown = tamperedPaths.slice(0, 3).join(', ') + (tamperedPaths.length > 3 ? `, … (${tamperedPaths.length} paths)` : '');
      return finish({ failureReason: 'TESTS_TAMPERED', passed: false, exitCode: result.exitCode, message: `the agent changed protected test files (${shown}); without them ${testMessage} ${where}` });
    }
    return finish({ failureReason: testReason, passed, exitCode: result.exitCode, message: `${testMessage} ${where}` });
  }

  private async exec(sandbox: Sandbox, command: string | string[], cwd: string, logName: string, extra: Pick<ExecOptions, 'stdin' | 'outputCapBytes' | 'env'> = {}): Promise<ExecResult> {
    const { task } = this.options.loaded;
    return sandbox.exec(command, {
      cwd,
      timeoutSec: task.environment.timeout_sec,
      logName,
      ...extra,
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
    });
  }

  /** Removes the verdict's sandbox and workspace (its logs and patches stay). */
  async dispose(): Promise<void> {
    await this.preparing.catch(() => undefined);
    try {
      await this.prepared?.sandbox?.dispose();
    } finally {
      // An image a sandbox still runs from cannot be removed: the sandbox goes first.
      await this.options.snapshot?.image.dispose();
    }
    await rm(path.join(this.options.verdictDir, 'workspace'), { recursive: true, force: true });
  }
}

/** A name no earlier run used, for the report file. */
function randomNonce(): string {
  return randomBytes(8).toString('hex');
}
