import type { FailureReason, StopReason } from '@agentbench/schemas';
import { failureReasonForStage, pickFailureReason } from '@agentbench/scoring';
import type { FinalVerdict } from '../../verdict/final-verdict.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';
import type { PostSetupState } from './post-setup-check.js';

/**
 * An agent attempt's final stage. Nothing of the agent's sandbox reaches the verdict but its
 * diff: the sandbox goes first, so no process of the agent's is left to change the tree while
 * host git reads it; then the diff since setup, minus the protected paths, is tested in the fresh
 * post-setup sandbox (FinalVerdict). Returns the message of a pass; stops the attempt otherwise.
 */
export async function judgeAgentDiff(context: AttemptContext, postSetup: PostSetupState, verdict: FinalVerdict): Promise<string> {
  context.enterStage('final_test');
  await context.disposeSandbox();
  const started = performance.now();
  const final = await postSetup.snapshots.snapshot();
  const outcome = await verdict.judge({
    snapshots: postSetup.snapshots,
    afterSetupTree: postSetup.afterSetupTree,
    finalTree: final.tree,
    ...(context.baselinePassingKeys === undefined ? {} : { baselinePassingKeys: context.baselinePassingKeys }),
  });
  context.verdict = outcome;
  context.verdictMs = performance.now() - started;
  context.lastExitCode = outcome.exitCode;
  for (const [name, file] of Object.entries(outcome.artifacts)) context.artifact(name, file);
  if (final.skippedLargeFiles.length > 0) context.notes.push(`left out of the agent's diff (over the size limit): ${final.skippedLargeFiles.slice(0, 5).join(', ')}`);

  const loop = context.agentRun;
  const message = `${outcome.message}; the agent loop stopped with ${loop?.stopReason ?? 'no stop reason'}: ${loop?.message ?? ''}`;
  if (!outcome.passed) throw new AttemptStop(agentFailureReason(loop?.stopReason, outcome.failureReason), message, outcome.exitCode);
  return message;
}

/** The reason of a failed attempt once the agent ran: its stop reason and the final tests, the root cause first. */
function agentFailureReason(stopReason: StopReason | undefined, verdictReason: FailureReason | null): FailureReason {
  const candidates: (FailureReason | null)[] = [];
  if (stopReason !== undefined && stopReason !== 'SUCCESS') candidates.push(failureReasonForStage({ stage: 'agent_run', stopReason }));
  candidates.push(verdictReason);
  return pickFailureReason(candidates.filter((reason): reason is FailureReason => reason !== null)) ?? 'TESTS_FAILED';
}
