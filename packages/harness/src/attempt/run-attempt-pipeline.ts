import { mkdir, rm } from 'node:fs/promises';
import type { FinalVerdict } from '../verdict/final-verdict.js';
import type { ScanningOptions } from '../verdict/scan-agent-changes.js';
import type { AttemptContext, AttemptEnd, PipelineEnd } from './attempt-context.js';
import type { AttemptMode, AttemptOutcome } from './attempt-outcome.js';
import { judgeAgentDiff } from './stages/agent-verdict.js';
import { runAgent, type AgentStageOptions } from './stages/agent.js';
import { baselineContextOf, gateOnBaseline } from './stages/baseline-gate.js';
import { runBaselineTests, type BaselineTestOptions } from './stages/baseline-tests.js';
import { cloneWhileSandboxStarts } from './stages/clone.js';
import { runFinalTest } from './stages/final-test.js';
import { runInstalledAgentAndJudge, runInstalledAgentTurn, startInstalledAgentGateway, type InstalledAgentStageOptions } from './stages/installed-agent.js';
import { checkPostSetup, prepareSnapshots, readPostSetupTree } from './stages/post-setup-check.js';
import { recordAgentAttempt, taskAttemptOutcome, type AgentAttemptEnd, type AgentRecordOptions } from './stages/record.js';
import { cutNetworkAfterSetup, runSetup } from './stages/setup.js';
import { startVerdictFromSnapshot, startVerdictWithSetup } from './stages/verdict-sandbox.js';

/** A baseline attempt's plan: its tests must fail as the task expects. */
export interface BaselinePlan {
  kind: 'baseline';
  baselineTests?: BaselineTestOptions;
}

/** An agent attempt's plan: [its baseline's plan, in a context of its own] → the agent → the verdict from its diff. */
export interface AgentPlan {
  kind: 'agent';
  agent: AgentStageOptions;
  /** The scanners of the agent's changes beside the built-in rules, and whether a suspicion fails the attempt. */
  scanning?: ScanningOptions;
  /** The baseline's plan, run first by this same pipeline; absent: the baseline is skipped. */
  baseline?: BaselinePlan;
  /** What the record stage needs beside the context. */
  record: AgentRecordOptions;
}

/**
 * An installed CLI agent's plan (`--agent codex`): an agent plan whose turn is the agent's own
 * program in the sandbox, its model traffic through the attempt's gateway.
 */
export interface InstalledAgentPlan extends Omit<AgentPlan, 'kind' | 'agent'> {
  kind: 'installed-agent';
  agent: InstalledAgentStageOptions;
}

/** Which attempt to run: the stages after setup differ, everything before is shared. */
export type AttemptPlan = BaselinePlan | { kind: 'task' } | AgentPlan | InstalledAgentPlan;

/**
 * The one attempt pipeline of AgentBench, used by run-task, baseline validation, run-agent,
 * suites and benchmarks:
 *
 *   [baseline plan] → clone (while the sandbox starts) → setup (the snapshots' git directory made meanwhile) →
 *   network cut, the post-setup snapshot taken meanwhile → post-setup check → [the verdict's sandbox from the post-setup snapshot] → baseline tests | final test in place | agent run → verdict from its diff
 *   → end (every sandbox removed, the workspace made safe to keep) → record
 *
 * It never throws for a failing task or agent: every way it can end is an AttemptEnd with a
 * FailureReason, decided by `AttemptContext.endFor` (our own bugs become INTERNAL_ERROR, with the
 * stack in `error.txt`). The record stage is the last: it builds the record from what the stages
 * left on the context, and nothing touches the context after it.
 */
export function runAttemptPipeline(context: AttemptContext, plan: AgentPlan | InstalledAgentPlan): Promise<AgentAttemptEnd>;
export function runAttemptPipeline(context: AttemptContext, plan: BaselinePlan | { kind: 'task' }): Promise<AttemptOutcome>;
export async function runAttemptPipeline(context: AttemptContext, plan: AttemptPlan): Promise<AgentAttemptEnd | AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  let end: AttemptEnd;
  try {
    end = { failureReason: null, message: await runStages(context, plan) };
  } catch (error) {
    end = await context.endFor(error);
  }
  end = await context.finish(end);
  const pipelineEnd: PipelineEnd = { ...end, startedAt, endedAt: new Date(), totalMs: performance.now() - started };
  if (plan.kind === 'agent' || plan.kind === 'installed-agent') return recordAgentAttempt(context, plan.record, pipelineEnd);
  const mode: AttemptMode = plan.kind;
  return taskAttemptOutcome(context, mode, pipelineEnd);
}

/** Returns the message of a success; a stage that fails throws (an AttemptStop, or an error). */
async function runStages(context: AttemptContext, plan: AttemptPlan): Promise<string> {
  const { paths } = context;
  // A resumed run may hold an interrupted attempt's files: each attempt starts from nothing.
  await rm(paths.workspaceDir, { recursive: true, force: true });
  await rm(paths.logDir, { recursive: true, force: true });
  await mkdir(paths.logDir, { recursive: true });
  context.artifact('logs', paths.logDir);
  context.throwIfAborted();

  const isAgent = plan.kind === 'agent' || plan.kind === 'installed-agent';
  if (isAgent && plan.baseline !== undefined) await gateOnBaseline(context, await runAttemptPipeline(baselineContextOf(context), plan.baseline));

  // Before the agent's sandbox is created: its mounts are the gateway's socket and the agent (the verdict's sandbox gets neither).
  const gateway = plan.kind === 'installed-agent' ? await startInstalledAgentGateway(context, plan.agent) : undefined;
  const { prepared, sandbox, repoPath } = await cloneWhileSandboxStarts(context);
  // The sandbox that judges an agent's diff starts from this attempt's post-setup snapshot; a
  // backend that cannot snapshot sets it up a second time, from now on, beside the agent's setup.
  let verdict = isAgent && sandbox.snapshot === undefined ? startVerdictWithSetup(context) : undefined;
  // The snapshots' git directory needs no work tree: it is made while setup runs.
  const snapshotsReady = prepareSnapshots(context, prepared);
  await runSetup(context, sandbox, repoPath);
  const reading = await cutNetworkAfterSetup(context, sandbox, readPostSetupTree(context, prepared, snapshotsReady));
  const postSetup = await checkPostSetup(context, reading, { enforceClean: plan.kind === 'baseline' });
  // Before any agent command runs: nothing the agent writes later can reach the snapshot.
  if (isAgent) verdict ??= (await startVerdictFromSnapshot(context, sandbox, repoPath)) ?? startVerdictWithSetup(context);
  switch (plan.kind) {
    case 'baseline':
      return runBaselineTests(context, sandbox, plan.baselineTests ?? {});
    case 'task':
      return runFinalTest(context, sandbox);
    case 'agent':
      await runAgent(context, sandbox, repoPath, plan.agent);
      return judgeAgentDiff(context, postSetup, verdict as FinalVerdict, plan.scanning ?? {});
    case 'installed-agent':
      return runInstalledAgentAndJudge(
        context,
        () => runInstalledAgentTurn(context, sandbox, repoPath, gateway, plan.agent),
        () => judgeAgentDiff(context, postSetup, verdict as FinalVerdict, plan.scanning ?? {}),
      );
  }
}
