import path from 'node:path';
import { formatSuspicion, type FailureReason, type StopReason, type Suspicion } from '@agentbench/schemas';
import { failureReasonForStage, pickFailureReason } from '@agentbench/scoring';
import type { FinalVerdict } from '../../verdict/final-verdict.js';
import { scanAgentChanges, type ScanningOptions } from '../../verdict/scan-agent-changes.js';
import type { AttemptContext } from '../attempt-context.js';
import { AttemptStop } from '../attempt-stop.js';
import type { PostSetupState } from './post-setup-check.js';

/**
 * An agent attempt's final stage. Nothing of the agent's sandbox reaches the verdict but its
 * diff: the sandbox goes first, so no process of the agent's is left to change the tree while
 * host git reads it; then the diff since setup, minus the protected paths, is tested in the fresh
 * post-setup sandbox (FinalVerdict). Then the scanners read the whole diff and the trajectory: their
 * suspicions go to the record, and fail the attempt (SUSPECTED_TAMPERING) only when asked to.
 * Returns the message of a pass; stops the attempt otherwise.
 */
export async function judgeAgentDiff(context: AttemptContext, postSetup: PostSetupState, verdict: FinalVerdict, scanning: ScanningOptions = {}): Promise<string> {
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

  const patchFiles = [outcome.artifacts['agent_patch'], outcome.artifacts['tampered_patch']].filter((file): file is string => file !== undefined);
  const suspicions = await scanAgentChanges({ patchFiles, eventsFile: path.join(context.paths.runDir, 'events.jsonl'), ...(context.signal === undefined ? {} : { signal: context.signal }) }, scanning);
  context.suspicions = suspicions;
  const isFailingOnSuspicion = suspicions.length > 0 && (scanning.failOnSuspicion === true || context.task.evaluation?.fail_on_suspicion === true);

  const loop = context.agentRun;
  const message = `${outcome.message}; the agent loop stopped with ${loop?.stopReason ?? 'no stop reason'}: ${loop?.message ?? ''}${isFailingOnSuspicion ? `; ${describeSuspicions(suspicions)}` : ''}`;
  if (!outcome.passed || isFailingOnSuspicion) throw new AttemptStop(agentFailureReason(loop?.stopReason, outcome, isFailingOnSuspicion), message, outcome.exitCode);
  return message;
}

/**
 * The reason of a failed attempt once the agent ran: its stop reason and the final tests, the root
 * cause first; a suspicion that fails the attempt is one more candidate. A diff that passed is
 * judged by its suspicions alone (the loop's stop reason did not matter to the pass either).
 */
function agentFailureReason(stopReason: StopReason | undefined, outcome: { passed: boolean; failureReason: FailureReason | null }, isFailingOnSuspicion: boolean): FailureReason {
  const candidates: (FailureReason | null)[] = [];
  if (!outcome.passed && stopReason !== undefined && stopReason !== 'SUCCESS') candidates.push(failureReasonForStage({ stage: 'agent_run', stopReason }));
  candidates.push(outcome.failureReason);
  if (isFailingOnSuspicion) candidates.push('SUSPECTED_TAMPERING');
  return pickFailureReason(candidates.filter((reason): reason is FailureReason => reason !== null)) ?? 'TESTS_FAILED';
}

function describeSuspicions(suspicions: readonly Suspicion[]): string {
  const [first] = suspicions;
  if (first === undefined) return '';
  return `failed on suspicion: ${formatSuspicion(first)}${suspicions.length > 1 ? ` (and ${suspicions.length - 1} more)` : ''}`;
}
