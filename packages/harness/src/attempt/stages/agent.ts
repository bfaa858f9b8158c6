import path from 'node:path';
import { EventLogger, runAgentLoop, toLlmToolDefinitions, type Agent, type AgentLoopLimits, type EventListener } from '@agentbench/agent-loop';
import type { Sandbox } from '@agentbench/sandbox';
import { createToolSet } from '@agentbench/tools';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';
import { isFile } from '@agentbench/helpers';

export interface AgentStageOptions {
  agent: Agent;
  /** Recorded in `run_started` and the record. */
  variant: string;
  limits: AgentLoopLimits;
  /** Reject non-standard patches. Default: `AGENTBENCH_STRICT_PATCH`. */
  strictPatch?: boolean;
  onEvent?: EventListener;
}

/**
 * The agent's turn: the tools over the attempt's sandbox (network already cut), the loop with
 * its budgets, `events.jsonl`, the per-step diffs and `llm_messages.jsonl` as artifacts. The
 * loop's own test runs are the agent's feedback only; the verdict comes later, from its diff.
 */
export async function runAgent(context: AttemptContext, sandbox: Sandbox, repoPath: string, options: AgentStageOptions): Promise<void> {
  context.enterStage('agent_run');
  const { runDir } = context.paths;
  const tools = createToolSet({
    sandbox,
    root: path.posix.join(sandbox.workdir, repoPath),
    artifactsDir: runDir,
    defaultRunTimeoutSec: context.task.environment.timeout_sec,
    ...(options.strictPatch === undefined ? {} : { isStrictPatch: options.strictPatch }),
  });
  const eventsFile = path.join(runDir, 'events.jsonl');
  const eventLogger = new EventLogger({ runId: context.runId, file: eventsFile, ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }) });
  context.artifact('events', eventsFile);
  try {
    context.agentRun = await runAgentLoop({
      sandbox,
      tools,
      agent: options.agent,
      task: context.loaded,
      limits: options.limits,
      artifactsDir: runDir,
      eventLogger,
      repoPath,
      toolDefinitions: toLlmToolDefinitions(tools.definitions()),
      variant: options.variant,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
  } finally {
    eventLogger.close();
  }
  const loop = context.agentRun;
  if (loop.patches.length > 0) context.artifact('diffs', path.join(runDir, 'diffs'));
  const messagesFile = path.join(runDir, 'llm_messages.jsonl');
  if (await isFile(messagesFile)) context.artifact('llm_messages', messagesFile);
  if (loop.stopReason === 'INTERRUPTED') throw new AttemptStop('INTERRUPTED', 'interrupted during the agent run');
}

