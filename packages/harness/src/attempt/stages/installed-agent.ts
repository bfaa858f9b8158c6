import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLoopLimits, AgentLoopResult } from '@agentbench/agent-loop';
import { startAttemptGateway, type AttemptGateway, type AttemptGatewayOptions, type AttemptGatewayOutcome } from '@agentbench/cassette';
import { buildInstruction, runInstalledAgent, type AgentDefinition, type AgentInstallation, type InstalledAgentRun } from '@agentbench/installed-agents';
import type { Sandbox } from '@agentbench/sandbox';
import type { AgentEvent, FailureReason, StopReason } from '@agentbench/schemas';
import { failureReasonForError, failureReasonForStopReason } from '@agentbench/scoring';
import { HarnessError } from '../../errors/harness-error.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';

export interface InstalledAgentStageOptions {
  definition: AgentDefinition;
  installation: AgentInstallation;
  /** `NAME@VERSION`: recorded as the attempt's variant. */
  variant: string;
  model: string;
  /** Where the instruction comes from (`buildInstruction`): the task's folder and a template of the user's; its version is recorded as `model.prompt_version`. */
  instruction: { taskFolder: string; templateFile?: string; templateSha256?: string };
  /** `max_steps` is the gateway's requests budget (an installed agent's step is a model request); `maxTimeSec` the agent's time limit. */
  limits: AgentLoopLimits;
  /** The attempt's gateway: its cassette, record or replay, upstream. The budget comes from `limits`. */
  gateway: Omit<AttemptGatewayOptions, 'budget'>;
  /** The generic `command` agent's command line. */
  command?: string;
}

/**
 * Starts the attempt's model gateway before the attempt's sandbox exists, because its socket
 * folder and the agent's install folder are mounted when the sandbox is created (a container
 * takes no new mount later). It is stopped when the attempt ends, on every path (`onCleanup`
 * runs in `finish`), and earlier by the agent's turn once the agent has exited.
 */
export async function startInstalledAgentGateway(context: AttemptContext, options: InstalledAgentStageOptions): Promise<AttemptGateway> {
  const { limits } = options;
  const gateway = await startAttemptGateway({
    ...options.gateway,
    budget: {
      maxRequests: limits.maxSteps,
      maxTimeSec: limits.maxTimeSec,
      ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
      ...(limits.maxCostUsd === undefined ? {} : { maxCostUsd: limits.maxCostUsd }),
    },
  });
  context.onCleanup(async () => {
    await gateway.close();
  });
  context.modelProxy = gateway.proxy;
  context.readOnlyMounts = [gateway.mount, ...options.installation.mounts];
  return gateway;
}

/**
 * The installed agent's turn in the attempt's sandbox (network already cut): the loopback
 * forwarder to the gateway, the agent's command, then the gateway's outcome read into the
 * attempt. A spent budget is the agent's stop (its reason recorded, the verdict still taken from
 * the diff, as for our own loop); an upstream that failed on the last model request is an
 * infrastructure failure (`LLM_ERROR` with the gateway's evidence), which `ab run` retries.
 */
export async function runInstalledAgentTurn(context: AttemptContext, sandbox: Sandbox, repoPath: string, gateway: AttemptGateway | undefined, options: InstalledAgentStageOptions): Promise<void> {
  if (gateway === undefined) throw new HarnessError('the installed agent runs without its gateway: startInstalledAgentGateway was not called first');
  context.enterStage('agent_run');
  // The repository is a folder of the workdir: the agent starts there, and is told so.
  const repository = path.posix.join(sandbox.workdir, repoPath);
  const { task } = context;
  const instruction = await buildInstruction({ task: { ...task, environment: { ...task.environment, workdir: repository } }, ...options.instruction });
  const forwarder = await gateway.startForwarder(sandbox);
  // The agent's own stream and the gateway's exchanges, as the steps our own loop writes: the timeline, `ab compare` and the reports read them.
  const eventsFile = path.join(context.paths.runDir, 'events.jsonl');
  context.artifact('events', eventsFile);
  const run = await runInstalledAgent({
    events: { file: eventsFile, runId: context.runId, taskId: task.id, variant: options.variant, gateway },
    sandbox,
    definition: options.definition,
    installation: options.installation,
    instruction: instruction.text,
    cwd: repository,
    baseUrl: `http://127.0.0.1:${forwarder.port}`,
    model: options.model,
    timeoutSec: options.limits.maxTimeSec,
    ...(options.command === undefined ? {} : { command: options.command }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  // Closed now, not at the attempt's end: a request the agent gave up on is then counted.
  const outcome = await gateway.close();
  context.agentRun = agentRunOf(run, outcome, options.definition.name);
  if (run.killedBy === 'abort') throw new AttemptStop('INTERRUPTED', 'interrupted during the agent run');
  if (outcome.infrastructureFailure !== undefined) {
    context.endpointFailure = outcome.infrastructureFailure.message;
    throw new AttemptStop('LLM_ERROR', `the model upstream failed on the agent's last request: ${outcome.infrastructureFailure.message}`);
  }
}

/**
 * The installed agent's turn and the verdict on its diff, then the trajectory's last line,
 * `run_finished`, as our own agent loop ends `events.jsonl`: the timeline, the reports reading an
 * events file and ATIF take the outcome from it. Ours writes it when the loop stops; an installed
 * agent's is written here, once the harness knows the outcome: passed only when the verdict on
 * the diff passed, else the reason the attempt stops with (the upstream's LLM_ERROR, with no
 * verdict taken; TESTS_TAMPERED; ...). Nothing is written when the agent never ran (no events).
 */
export async function runInstalledAgentAndJudge(context: AttemptContext, turn: () => Promise<void>, judge: () => Promise<string>): Promise<string> {
  let failureReason: FailureReason | null = null;
  try {
    await turn();
    return await judge();
  } catch (error) {
    failureReason = error instanceof AttemptStop ? error.failureReason : failureReasonForError(error);
    throw error;
  } finally {
    // A line that cannot be written does not hide why the attempt stopped.
    const written = appendRunFinished(context, failureReason);
    await (failureReason === null ? written : written.catch(() => undefined));
  }
}

async function appendRunFinished(context: AttemptContext, failureReason: FailureReason | null): Promise<void> {
  const run = context.agentRun;
  if (run === undefined || context.artifacts['events'] === undefined) return;
  const eventsFile = path.join(context.paths.runDir, 'events.jsonl');
  const event: AgentEvent = {
    event_type: 'run_finished',
    timestamp: new Date().toISOString(),
    run_id: context.runId,
    step: run.steps,
    payload: {
      passed: failureReason === null,
      stop_reason: run.stopReason,
      failure_reason: failureReason,
      steps: run.steps,
      duration_sec: run.durationSec,
      input_tokens: run.tokens.input,
      output_tokens: run.tokens.output,
      cost_usd: run.costUsd ?? null,
    },
  };
  await appendFile(eventsFile, `${JSON.stringify(event)}\n`);
}

/**
 * The agent's run in the loop result's terms, so the verdict and the record read an installed
 * agent as they read ours: a step is a model request, tokens and cost are the gateway's counts.
 */
function agentRunOf(run: InstalledAgentRun, outcome: AttemptGatewayOutcome, name: string): AgentLoopResult {
  const { stopReason, message } = stopOf(run, outcome, name);
  const { usage } = outcome;
  return {
    stopReason,
    failureReason: failureReasonForStopReason(stopReason),
    passed: false,
    steps: usage.requests,
    isTestRunFresh: false,
    testRuns: [],
    tokens: { input: usage.inputTokens, output: usage.outputTokens, total: usage.inputTokens + usage.outputTokens },
    ...(usage.requests > usage.unpricedRequests ? { costUsd: usage.costUsd } : {}),
    patches: [],
    durationSec: run.durationMs / 1000,
    message,
  };
}

/** Why the agent stopped, from the harness's own observations: the gateway's budget and upstream, the process's end. */
function stopOf(run: InstalledAgentRun, outcome: AttemptGatewayOutcome, name: string): { stopReason: StopReason; message: string } {
  if (run.killedBy === 'abort') return { stopReason: 'INTERRUPTED', message: `${name} was interrupted` };
  // The upstream first: an agent that spent its requests retrying a dead upstream was stopped by the upstream, not by its budget.
  if (outcome.infrastructureFailure !== undefined) return { stopReason: 'LLM_ERROR', message: outcome.infrastructureFailure.message };
  if (outcome.budgetStop !== undefined) return { stopReason: outcome.budgetStop.stopReason, message: outcome.budgetStop.message };
  if (run.timedOut) return { stopReason: 'MAX_TIME', message: `${name} ran out of its time limit and was killed` };
  // Codex's exit code does not say whether it got there; the verdict, from the diff, does.
  if (run.exitCode === 0) return { stopReason: 'SUCCESS', message: `${name} exited 0 after ${outcome.usage.requests} model requests` };
  return { stopReason: 'AGENT_GAVE_UP', message: `${name} exited ${run.exitCode} after ${outcome.usage.requests} model requests: ${lastLine(run.stderr)}` };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
