import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { FinalVerdict } from '../verdict/final-verdict.js';
import type { ScanningOptions } from '../verdict/scan-agent-changes.js';
import type { AttemptContext, AttemptEnd, PipelineEnd } from './attempt-context.js';
import { judgeAgentDiff } from './stages/agent-verdict.js';
import { runAgent, type AgentStageOptions } from './stages/agent.js';
import { validateBaselineFirst, type BaselineValidation } from './stages/baseline-gate.js';
import { runBaselineTests, type BaselineTestOptions } from './stages/baseline-tests.js';
import { cloneWhileSandboxStarts } from './stages/clone.js';
import { runFinalTest } from './stages/final-test.js';
import { runInstalledAgentTurn, startInstalledAgentGateway, type InstalledAgentStageOptions } from './stages/installed-agent.js';
import { checkPostSetup } from './stages/post-setup-check.js';
import { runSetup } from './stages/setup.js';

/** Which attempt to run: the stages after setup differ, everything before is shared. */
export type AttemptPlan =
  | { kind: 'baseline'; baselineTests?: BaselineTestOptions }
  | { kind: 'task' }
  | {
      kind: 'agent';
      agent: AgentStageOptions;
      /** The scanners of the agent's changes beside the built-in rules, and whether a suspicion fails the attempt. */
      scanning?: ScanningOptions;
      /** Validates the baseline first (`validateBaseline`); absent: skipped. */
      validateBaseline?: BaselineValidation;
    }
  | { kind: 'installed-agent'; agent: InstalledAgentStageOptions; scanning?: ScanningOptions; validateBaseline?: BaselineValidation };

/**
 * The one attempt pipeline of AgentBench, used by run-task, baseline validation, run-agent,
 * suites and benchmarks:
 *
 *   [baseline gate] → clone (while the sandbox starts) → setup (network cut after it) →
 *   post-setup check → baseline tests | final test in place | agent run → verdict from its diff
 *
 * then the end: every sandbox removed, the workspace made safe to keep. It never throws for a
 * failing task or agent: every way it can end is an AttemptEnd with a FailureReason, decided by
 * `AttemptContext.endFor` (our own bugs become INTERNAL_ERROR, with the stack in `error.txt`).
 * What the stages recorded stays on the context, for the record.
 */
export async function runAttemptPipeline(context: AttemptContext, plan: AttemptPlan): Promise<PipelineEnd> {
  const startedAt = new Date();
  const started = performance.now();
  let end: AttemptEnd;
  try {
    end = { failureReason: null, message: await runStages(context, plan) };
  } catch (error) {
    end = await context.endFor(error);
  }
  end = await context.finish(end);
  return { ...end, startedAt, endedAt: new Date(), totalMs: performance.now() - started };
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

  let verdict: FinalVerdict | undefined;
  if (plan.kind === 'agent' || plan.kind === 'installed-agent') {
    if (plan.validateBaseline !== undefined) await validateBaselineFirst(context, plan.validateBaseline);
    // The fresh sandbox that judges the agent's diff is cloned and set up from now on, beside the
    // agent's own setup and loop, so the final stage rarely waits for it.
    const spec = context.sandboxSpec();
    const started = FinalVerdict.start({
      loaded: context.loaded,
      verdictDir: path.join(paths.runDir, 'verdict'),
      spec: { ...spec, labels: { ...spec.labels, role: 'verdict' } },
      createSandbox: context.createSandbox,
      ...context.repositoryOptions,
    });
    context.onCleanup(() => started.dispose());
    verdict = started;
  }

  // After the verdict's spec is taken: only the agent's sandbox gets the gateway and the agent mounted.
  const gateway = plan.kind === 'installed-agent' ? await startInstalledAgentGateway(context, plan.agent) : undefined;
  const { prepared, sandbox, repoPath } = await cloneWhileSandboxStarts(context);
  await runSetup(context, sandbox, repoPath);
  const postSetup = await checkPostSetup(context, prepared, { enforceClean: plan.kind === 'baseline' });
  switch (plan.kind) {
    case 'baseline':
      return runBaselineTests(context, sandbox, plan.baselineTests ?? {});
    case 'task':
      return runFinalTest(context, sandbox);
    case 'agent':
      await runAgent(context, sandbox, repoPath, plan.agent);
      return judgeAgentDiff(context, postSetup, verdict as FinalVerdict, plan.scanning ?? {});
    case 'installed-agent':
      await runInstalledAgentTurn(context, sandbox, repoPath, gateway, plan.agent);
      return judgeAgentDiff(context, postSetup, verdict as FinalVerdict, plan.scanning ?? {});
  }
}
