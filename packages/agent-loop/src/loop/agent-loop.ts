import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExecResult, Sandbox } from '@agentbench/sandbox';
import type { FailureReason, LoadedTask, StopReason, ToolRequest, ToolResult } from '@agentbench/schemas';
import { failureReasonForError, failureReasonForStage, failureReasonForStopReason } from '@agentbench/scoring';
import type { Agent, AgentAction, AppliedPatch, BudgetState, Observation, TestRun, ToolCall, ToolHistoryEntry } from '../contract/agent.js';
import { AgentLoopError } from '../errors/agent-loop-error.js';
import { LlmError } from '../errors/llm-error.js';
import type { LlmToolDefinition } from '../contract/llm-types.js';
import type { EventLogger } from '../logging/event-logger.js';
import { resolveLoopLimits, type AgentLoopLimits } from '../contract/loop-limits.js';
import { normalizeTestOutput, RepeatedFailureDetector } from './repeated-failure.js';
import type { ToolExecutor } from './tool-executor.js';
import { isRecord } from '@agentbench/helpers';

export interface AgentLoopOptions {
  sandbox: Sandbox;
  tools: ToolExecutor;
  agent: Agent;
  task: LoadedTask;
  limits?: Partial<AgentLoopLimits>;
  /** Host folder of this run's artifacts (`logs/` for test runs). */
  artifactsDir: string;
  eventLogger: EventLogger;
  /** Aborting ends the run with INTERRUPTED; the running command is killed. */
  signal?: AbortSignal;
  /** The repository inside the sandbox, relative to its workdir (or absolute). Default `.`. */
  repoPath?: string;
  /**
   * Setup commands run (in order, with network) before the first test run. Default none: the
   * harness runs (and normalises) the task's setup before handing over the sandbox.
   */
  setupCommands?: readonly string[];
  /** Timeout of each setup command and test run. Default `task.environment.timeout_sec`. */
  commandTimeoutSec?: number;
  /** The tools' JSON Schemas, handed to the agent at start. */
  toolDefinitions?: readonly LlmToolDefinition[];
  /** Recorded in `run_started`. */
  variant?: string;
  /** Milliseconds clock for the time budget; replaceable in tests. Default `Date.now`. */
  clock?: () => number;
}

export interface AgentLoopResult {
  stopReason: StopReason;
  /** The taxonomy's reading of the stop reason (null on SUCCESS). */
  failureReason: FailureReason | null;
  /** The last test run passed. */
  passed: boolean;
  /** Tool calls made. */
  steps: number;
  lastTestRun?: TestRun;
  /** Whether `lastTestRun` saw the final state of the workspace (nothing changed it since). */
  isTestRunFresh: boolean;
  testRuns: TestRun[];
  tokens: { input: number; output: number; total: number };
  /** Undefined when the provider reported no cost. */
  costUsd?: number;
  patches: AppliedPatch[];
  durationSec: number;
  /** One line: why the loop stopped. */
  message: string;
}

/** Bytes of stdout and of stderr kept from one test run. */
const TEST_OUTPUT_CAP_BYTES = 256 * 1024;

class StopLoop {
  constructor(
    readonly stopReason: StopReason,
    readonly message: string,
    readonly details: Record<string, unknown> = {},
  ) {}
}

function pad(step: number): string {
  return String(step).padStart(4, '0');
}

function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}

/** Tool errors the agent can do something about; anything else means the tool runtime is broken. */
const RECOVERABLE_TOOL_ERRORS = new Set(['path_escape', 'symlink_blocked', 'file_not_found', 'binary_file', 'timeout', 'patch_failed', 'invalid_arguments']);

/**
 * Runs an agent against a task in a sandbox: the first step (setup when asked, then the tests;
 * done at once if they already pass), then the agent's actions under the budgets, with the
 * tests run after every applied patch and once more before stopping if the workspace changed
 * since. Every step is written to the event log. Never throws for an agent that fails; throws
 * `AgentLoopError` for a setup failure (with its FailureReason) or an agent that crashes.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  return new AgentLoop(options).run();
}

export class AgentLoop {
  private readonly limits: AgentLoopLimits;
  private readonly clock: () => number;
  private readonly task: LoadedTask['task'];
  private readonly logger: EventLogger;
  private readonly repeated: RepeatedFailureDetector;
  private readonly history: ToolHistoryEntry[] = [];
  private readonly patches: AppliedPatch[] = [];
  private readonly testRuns: TestRun[] = [];
  private readonly testCommand: string;
  private problemStatement: string | undefined;
  private lastResults: ToolHistoryEntry[] = [];
  private startedAt = 0;
  private steps = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private costUsd: number | undefined;
  private isWorkspaceChanged = false;
  private testLogCounter = 0;

  constructor(private readonly options: AgentLoopOptions) {
    this.limits = resolveLoopLimits(options.limits);
    this.clock = options.clock ?? Date.now;
    this.task = options.task.task;
    this.logger = options.eventLogger;
    this.repeated = new RepeatedFailureDetector(this.limits.repeatedFailureThreshold);
    this.testCommand = this.task.run.command;
  }

  async run(): Promise<AgentLoopResult> {
    this.startedAt = this.clock();
    this.problemStatement = await readProblemStatement(this.options.task.dir);
    const { agent } = this.options;
    this.logger.emit('run_started', { task_id: this.task.id, variant: this.options.variant ?? agent.name, agent: agent.name, limits: { ...this.limits } }, 0);
    let stop: StopLoop;
    try {
      stop = await this.firstStepAndLoop();
    } catch (error) {
      if (error instanceof StopLoop) stop = error;
      else {
        const failureReason = failureReasonForError(error);
        this.logger.emit('run_finished', {
          passed: false,
          failure_reason: failureReason,
          steps: this.steps,
          duration_sec: this.elapsedSec(),
          message: error instanceof Error ? error.message : String(error),
        });
        await agent.dispose?.().catch(() => undefined);
        throw error;
      }
    }
    stop = await this.testBeforeExit(stop);
    await agent.dispose?.().catch(() => undefined);
    return this.finish(stop);
  }

  private async firstStepAndLoop(): Promise<StopLoop> {
    const { agent } = this.options;
    const signal = this.options.signal;
    await this.runSetup();
    const initial = await this.runTests('initial', 0);
    if (initial.passed) return new StopLoop('SUCCESS', 'the tests already pass before any change');
    this.recordTestFailure(initial);

    const startSignal = this.stepSignal();
    try {
      await agent.start?.({
        runId: this.logger.runId,
        task: this.options.task,
        artifactsDir: this.options.artifactsDir,
        eventLogger: this.logger,
        toolDefinitions: this.options.toolDefinitions ?? [],
        limits: this.limits,
        signal: signal ?? new AbortController().signal,
      });
    } catch (error) {
      throw this.agentFailure(error, startSignal, 'start');
    } finally {
      startSignal.dispose();
    }

    for (;;) {
      this.checkBudgets({ isBeforeAgent: true });
      const observation = this.observe();
      const actionSignal = this.stepSignal();
      let action: AgentAction;
      try {
        action = await agent.nextAction(observation, actionSignal.signal);
      } catch (error) {
        throw this.agentFailure(error, actionSignal, 'nextAction');
      } finally {
        actionSignal.dispose();
      }
      this.addUsage(action);
      if (action.kind === 'stop') {
        const said = action.reason === 'done' ? 'the agent stopped, saying it is done' : 'the agent gave up';
        return new StopLoop('AGENT_GAVE_UP', action.message === undefined ? said : `${said}: ${action.message}`, { agent_reason: action.reason });
      }
      if (!Array.isArray(action.calls) || action.calls.length === 0) {
        return new StopLoop('AGENT_GAVE_UP', 'the agent asked for no tool call', { agent_reason: 'no_action' });
      }
      this.lastResults = [];
      for (const call of action.calls) {
        this.checkBudgets({ isBeforeAgent: false });
        const outcome = await this.executeCall(call);
        if (outcome !== undefined) return outcome;
      }
    }
  }

  /** Budgets checked before each agent action and each tool call; throws StopLoop when one is spent. */
  private checkBudgets(when: { isBeforeAgent: boolean }): void {
    if (this.options.signal?.aborted === true) throw new StopLoop('INTERRUPTED', 'interrupted');
    if (this.elapsedSec() >= this.limits.maxTimeSec) {
      throw new StopLoop('MAX_TIME', `time budget spent (${this.limits.maxTimeSec} s)`);
    }
    if (this.steps >= this.limits.maxSteps) throw new StopLoop('MAX_STEPS', `step budget spent (${this.limits.maxSteps} tool calls)`);
    if (!when.isBeforeAgent) return;
    // Tokens and cost are spent by the agent's model calls, so they are checked before asking it again.
    const tokens = this.inputTokens + this.outputTokens;
    if (this.limits.maxTokens !== undefined && tokens >= this.limits.maxTokens) {
      throw new StopLoop('MAX_TOKENS', `token budget spent (${tokens} of ${this.limits.maxTokens} tokens)`, { budget: 'tokens' });
    }
    if (this.limits.maxCostUsd !== undefined && this.costUsd !== undefined && this.costUsd >= this.limits.maxCostUsd) {
      throw new StopLoop('MAX_COST', `cost budget spent ($${this.costUsd.toFixed(4)} of $${this.limits.maxCostUsd})`, { budget: 'cost' });
    }
  }

  private addUsage(action: AgentAction): void {
    const usage = action.usage;
    if (usage === undefined) return;
    this.inputTokens += usage.inputTokens ?? 0;
    this.outputTokens += usage.outputTokens ?? 0;
    if (usage.costUsd !== undefined) this.costUsd = (this.costUsd ?? 0) + usage.costUsd;
  }

  /** Runs one tool call as the next step; returns a StopLoop when it ends the run. */
  private async executeCall(call: ToolCall): Promise<StopLoop | undefined> {
    this.steps += 1;
    const step = this.steps;
    const request: ToolRequest = {
      tool: call.tool,
      params: isRecord(call.params) ? call.params : {},
      request_id: call.id !== undefined && call.id !== '' ? call.id : `${this.logger.runId}-${pad(step)}`,
      requested_at: new Date().toISOString(),
    };
    const isTestCommand = request.tool === 'run' && typeof request.params['command'] === 'string' && normalizeCommand(request.params['command']) === normalizeCommand(this.testCommand);
    this.logger.emit('tool_call_started', { request_id: request.request_id, tool: request.tool, params: request.params }, step);
    if (isTestCommand) this.logger.emit('tests_started', { command: this.testCommand, trigger: 'agent' }, step);
    const callSignal = this.stepSignal();
    let result: ToolResult;
    try {
      result = await this.options.tools.execute(request, { signal: callSignal.signal, step });
    } catch (error) {
      // A tool set answers bad calls with error results; an exception means the runtime itself broke.
      const message = error instanceof Error ? error.message : String(error);
      this.logger.emit('tool_call_finished', { request_id: request.request_id, tool: request.tool, status: 'error', error_kind: 'internal', message }, step);
      if (callSignal.signal.aborted) throw this.abortStop(callSignal);
      return new StopLoop('TOOL_ERROR', `tool ${request.tool} failed: ${message}`);
    } finally {
      callSignal.dispose();
    }
    this.logger.emit(
      'tool_call_finished',
      {
        request_id: request.request_id,
        tool: request.tool,
        status: result.status,
        duration_sec: result.duration_sec,
        error_kind: result.error?.kind ?? null,
        exit_code: result.exit_code ?? null,
        ...(result.error ? { message: result.error.message } : {}),
      },
      step,
    );
    const entry: ToolHistoryEntry = { step, request, result };
    this.history.push(entry);
    this.lastResults.push(entry);
    if (callSignal.signal.aborted) {
      if (isTestCommand) this.logger.emit('tests_finished', { exit_code: result.exit_code ?? -1, passed: false, timed_out: false }, step);
      throw this.abortStop(callSignal);
    }

    if (result.status === 'error') {
      const error = result.error;
      if (isTestCommand) this.logger.emit('tests_finished', { exit_code: result.exit_code ?? -1, passed: false, timed_out: error?.kind === 'timeout' }, step);
      if (error !== undefined && error !== null && !RECOVERABLE_TOOL_ERRORS.has(error.kind)) {
        return new StopLoop('TOOL_ERROR', `tool ${request.tool} failed (${error.kind}): ${error.message}`);
      }
      const signature = `tool:${request.tool}:${error?.kind ?? 'unknown'}:${error?.message ?? ''}`;
      if (this.repeated.recordFailure(signature)) {
        return new StopLoop('REPEATED_FAILURE', `the same ${request.tool} error ${this.repeated.repeats} times in a row: ${error?.message ?? ''}`);
      }
      return undefined;
    }

    if (request.tool === 'apply_patch') {
      const data = isRecord(result.data) ? result.data : {};
      const patch: AppliedPatch = { step, filesChanged: stringList(data['files_changed'] ?? data['changed_files'] ?? data['files']) };
      const patchPath = data['patch_path'] ?? data['artifact_path'];
      if (typeof patchPath === 'string') patch.patchPath = patchPath;
      this.patches.push(patch);
      this.logger.emit('patch_applied', { patch_path: patch.patchPath ?? null, files_changed: patch.filesChanged }, step);
      this.isWorkspaceChanged = true;
      const tests = await this.runTests('after_patch', step);
      if (tests.passed) return new StopLoop('SUCCESS', `the tests pass after the patch of step ${step}`);
      return this.recordTestFailure(tests);
    }

    if (request.tool === 'run') {
      if (isTestCommand) {
        const tests = this.testRunFromResult(result, step);
        this.logger.emit('tests_finished', { exit_code: tests.exitCode, passed: tests.passed, timed_out: tests.timedOut, duration_sec: tests.durationMs / 1000 }, step);
        if (tests.passed) return new StopLoop('SUCCESS', `the tests pass (step ${step})`);
        return this.recordTestFailure(tests);
      }
      // Any other command may have changed files: the last test result is no longer known to hold.
      this.isWorkspaceChanged = true;
    }
    return undefined;
  }

  private testRunFromResult(result: ToolResult, step: number): TestRun {
    const data = isRecord(result.data) ? result.data : {};
    const stdout = typeof data['stdout'] === 'string' ? data['stdout'] : '';
    const stderr = typeof data['stderr'] === 'string' ? data['stderr'] : '';
    const exitCode = result.exit_code ?? (typeof data['exit_code'] === 'number' ? data['exit_code'] : -1);
    const timedOut = data['timed_out'] === true || exitCode === 124;
    const run: TestRun = {
      step,
      command: this.testCommand,
      exitCode,
      passed: exitCode === 0 && !timedOut,
      timedOut,
      output: joinOutput(stdout, stderr),
      durationMs: result.duration_sec * 1000,
      trigger: 'agent',
    };
    if (typeof result.stdout_path === 'string') run.logPath = result.stdout_path;
    this.testRuns.push(run);
    this.isWorkspaceChanged = false;
    return run;
  }

  /** Notes a failing test run for the repeated-failure budget; returns a StopLoop when it is the last straw. */
  private recordTestFailure(tests: TestRun): StopLoop | undefined {
    if (tests.passed) {
      this.repeated.reset();
      return undefined;
    }
    const signature = `tests:${tests.exitCode}:${normalizeTestOutput(tests.output)}`;
    if (this.repeated.recordFailure(signature)) {
      return new StopLoop('REPEATED_FAILURE', `the tests failed with the same output ${this.repeated.repeats} times in a row (exit ${tests.exitCode})`);
    }
    return undefined;
  }

  private async runSetup(): Promise<void> {
    const commands = this.options.setupCommands ?? [];
    if (commands.length === 0) return;
    const { sandbox } = this.options;
    await sandbox.setNetwork(true);
    try {
      for (const [index, command] of commands.entries()) {
        const result = await this.exec(command, `agent_setup_${index + 1}`);
        if (result.killedBy === 'abort') throw new StopLoop('INTERRUPTED', 'interrupted during setup');
        const reason = failureReasonForStage({ stage: 'setup', exitCode: result.exitCode, timedOut: result.timedOut });
        if (reason !== null) {
          throw new AgentLoopError(`setup command ${index + 1} (${command}) failed with exit ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}`, {
            failureReason: reason,
          });
        }
      }
    } finally {
      await sandbox.setNetwork(false);
    }
  }

  private async exec(command: string, logName: string, signal?: AbortSignal): Promise<ExecResult> {
    const repoPath = this.options.repoPath ?? '.';
    return this.options.sandbox.exec(command, {
      cwd: repoPath,
      timeoutSec: this.options.commandTimeoutSec ?? this.task.environment.timeout_sec,
      outputCapBytes: TEST_OUTPUT_CAP_BYTES,
      logName,
      ...(signal === undefined ? (this.options.signal === undefined ? {} : { signal: this.options.signal }) : { signal }),
    });
  }

  private async runTests(trigger: TestRun['trigger'], step: number): Promise<TestRun> {
    this.logger.emit('tests_started', { command: this.testCommand, trigger }, step);
    this.testLogCounter += 1;
    const logName = `agent_tests_${pad(this.testLogCounter)}_step_${pad(step)}`;
    const testSignal = this.stepSignal();
    let result: ExecResult;
    try {
      result = await this.exec(this.testCommand, logName, testSignal.signal);
    } finally {
      testSignal.dispose();
    }
    const output = joinOutput(result.stdout, result.stderr);
    const run: TestRun = {
      step,
      command: this.testCommand,
      exitCode: result.exitCode,
      passed: result.exitCode === 0 && !result.timedOut && result.killedBy === undefined,
      timedOut: result.timedOut,
      output,
      durationMs: result.durationMs,
      trigger,
      logPath: result.logPath ?? (await this.writeTestLog(logName, result)),
    };
    this.testRuns.push(run);
    this.isWorkspaceChanged = false;
    this.logger.emit(
      'tests_finished',
      { exit_code: run.exitCode, passed: run.passed, timed_out: run.timedOut, duration_sec: run.durationMs / 1000, trigger, log_path: run.logPath ?? null },
      step,
    );
    if (result.killedBy === 'abort') throw this.abortStop(testSignal);
    return run;
  }

  private async writeTestLog(logName: string, result: ExecResult): Promise<string | undefined> {
    try {
      const folder = path.join(this.options.artifactsDir, 'logs');
      await mkdir(folder, { recursive: true });
      const file = path.join(folder, `${logName}.txt`);
      await writeFile(file, `$ ${this.testCommand}\n# exit ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}\n`);
      return file;
    } catch {
      return undefined;
    }
  }

  /** Before stopping without a verdict on the final workspace, the tests run once more (not after an interruption or the time budget). */
  private async testBeforeExit(stop: StopLoop): Promise<StopLoop> {
    if (stop.stopReason === 'SUCCESS' || stop.stopReason === 'INTERRUPTED' || stop.stopReason === 'MAX_TIME') return stop;
    if (!this.isWorkspaceChanged && this.testRuns.length > 0) return stop;
    try {
      const tests = await this.runTests('before_exit', this.steps);
      if (tests.passed) return new StopLoop('SUCCESS', `the tests pass (run before stopping; ${stop.message})`);
    } catch (error) {
      if (error instanceof StopLoop) return error;
      // The run already has its reason; a sandbox too broken to test again does not replace it.
      const message = error instanceof Error ? error.message : String(error);
      return new StopLoop(stop.stopReason, `${stop.message} (the tests could not run again: ${message})`, stop.details);
    }
    return stop;
  }

  private finish(stop: StopLoop): AgentLoopResult {
    const lastTestRun = this.testRuns[this.testRuns.length - 1];
    const passed = lastTestRun?.passed === true;
    const failureReason = failureReasonForStopReason(stop.stopReason);
    this.logger.emit('agent_stopped', { stop_reason: stop.stopReason, message: stop.message, ...stop.details }, this.steps);
    const durationSec = this.elapsedSec();
    this.logger.emit(
      'run_finished',
      {
        passed,
        stop_reason: stop.stopReason,
        failure_reason: failureReason,
        steps: this.steps,
        duration_sec: durationSec,
        input_tokens: this.inputTokens,
        output_tokens: this.outputTokens,
        cost_usd: this.costUsd ?? null,
      },
      this.steps,
    );
    const result: AgentLoopResult = {
      stopReason: stop.stopReason,
      failureReason,
      passed,
      steps: this.steps,
      isTestRunFresh: lastTestRun !== undefined && !this.isWorkspaceChanged,
      testRuns: this.testRuns,
      tokens: { input: this.inputTokens, output: this.outputTokens, total: this.inputTokens + this.outputTokens },
      patches: this.patches,
      durationSec,
      message: stop.message,
    };
    if (lastTestRun !== undefined) result.lastTestRun = lastTestRun;
    if (this.costUsd !== undefined) result.costUsd = this.costUsd;
    return result;
  }

  private observe(): Observation {
    const elapsedSec = this.elapsedSec();
    const budgets: BudgetState = {
      maxSteps: this.limits.maxSteps,
      stepsUsed: this.steps,
      stepsRemaining: Math.max(0, this.limits.maxSteps - this.steps),
      maxTimeSec: this.limits.maxTimeSec,
      elapsedSec,
      timeRemainingSec: Math.max(0, this.limits.maxTimeSec - elapsedSec),
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
    };
    if (this.limits.maxTokens !== undefined) budgets.maxTokens = this.limits.maxTokens;
    if (this.costUsd !== undefined) budgets.costUsd = this.costUsd;
    if (this.limits.maxCostUsd !== undefined) budgets.maxCostUsd = this.limits.maxCostUsd;
    const observation: Observation = {
      step: this.steps + 1,
      task: {
        id: this.task.id,
        suite: this.task.suite,
        testCommand: this.testCommand,
        workdir: this.task.environment.workdir,
        ...(this.problemStatement === undefined ? {} : { problemStatement: this.problemStatement }),
      },
      history: [...this.history],
      lastResults: [...this.lastResults],
      patches: [...this.patches],
      budgets,
    };
    const lastTestRun = this.testRuns[this.testRuns.length - 1];
    if (lastTestRun !== undefined) observation.lastTestRun = lastTestRun;
    return observation;
  }

  private elapsedSec(): number {
    return Math.max(0, (this.clock() - this.startedAt) / 1000);
  }

  /**
   * A signal for one agent call, tool call or test run: aborted by the caller's signal or when
   * the time budget runs out, remembering which, so the stop reason is right.
   */
  private stepSignal(): StepSignal {
    const controller = new AbortController();
    const state: StepSignal = {
      signal: controller.signal,
      isDeadline: false,
      dispose: () => {
        clearTimeout(timer);
        this.options.signal?.removeEventListener('abort', onAbort);
      },
    };
    const onAbort = (): void => controller.abort(this.options.signal?.reason);
    if (this.options.signal?.aborted === true) controller.abort(this.options.signal.reason);
    else this.options.signal?.addEventListener('abort', onAbort, { once: true });
    const remainingMs = Math.max(0, this.limits.maxTimeSec * 1000 - (this.clock() - this.startedAt));
    const timer = setTimeout(() => {
      state.isDeadline = true;
      controller.abort(new Error('time budget spent'));
    }, Math.min(remainingMs, 2 ** 31 - 1));
    timer.unref?.();
    return state;
  }

  private abortStop(stepSignal: StepSignal): StopLoop {
    if (this.options.signal?.aborted === true) return new StopLoop('INTERRUPTED', 'interrupted');
    if (stepSignal.isDeadline) return new StopLoop('MAX_TIME', `time budget spent (${this.limits.maxTimeSec} s)`);
    return new StopLoop('INTERRUPTED', 'interrupted');
  }

  /**
   * Classifies an exception of the agent: interruption (the harness's signal only), time budget,
   * LLM failure (whose class the harness decides from its model proxy's evidence), or a bug.
   */
  private agentFailure(error: unknown, stepSignal: StepSignal, method: string): unknown {
    if (error instanceof StopLoop) return error;
    if (stepSignal.signal.aborted) return this.abortStop(stepSignal);
    const message = error instanceof Error ? error.message : String(error);
    const declaredKind = isRecord(error) ? error['errorKind'] : undefined;
    if (LlmError.isInstance(error) || declaredKind === 'llm') {
      return new StopLoop('LLM_ERROR', `model call failed: ${message}`, LlmError.isInstance(error) ? { llm_error_kind: error.kind } : {});
    }
    // Only the harness's signal (checked above) interrupts a run: an agent that raises an interrupt
    // itself ended its own attempt, and must not pass that off as infrastructure.
    if (declaredKind === 'interrupt') return new StopLoop('AGENT_GAVE_UP', `the agent raised an interrupt itself (errorKind 'interrupt'; the harness did not stop it): ${message}`);
    if (declaredKind === 'tool') return new StopLoop('TOOL_ERROR', message);
    return new AgentLoopError(`agent "${this.options.agent.name}" failed in ${method}() at step ${this.steps + 1}: ${message}`, {
      cause: error,
      failureReason: 'INTERNAL_ERROR',
    });
  }
}

interface StepSignal {
  signal: AbortSignal;
  isDeadline: boolean;
  dispose(): void;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function joinOutput(stdout: string, stderr: string): string {
  if (stderr === '') return stdout;
  if (stdout === '') return stderr;
  return `${stdout}${stdout.endsWith('\n') ? '' : '\n'}${stderr}`;
}

/** The issue text kept beside a task (`problem_statement.md`), when there is one. */
async function readProblemStatement(taskDirectory: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path.join(taskDirectory, 'problem_statement.md'), 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}
