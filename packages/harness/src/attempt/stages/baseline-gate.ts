import { rm } from 'node:fs/promises';
import path from 'node:path';
import { AttemptContext } from '../attempt-context.js';
import type { AttemptOutcome } from '../attempt-outcome.js';
import { AttemptStop } from '../attempt-stop.js';

/**
 * The context of an agent attempt's baseline: an attempt of its own in `<runDir>/baseline/`, with
 * the agent attempt's run id, sandboxes, repository cache and abort signal. The pipeline runs the
 * baseline's plan of stages in it, before the agent attempt's own.
 */
export function baselineContextOf(context: AttemptContext): AttemptContext {
  context.enterStage('baseline');
  const baselineDir = path.join(context.paths.runDir, 'baseline');
  return new AttemptContext({
    loaded: context.loaded,
    paths: { runDir: context.paths.runDir, logDir: path.join(baselineDir, 'logs'), workspaceDir: path.join(baselineDir, 'workspace') },
    runId: context.runId,
    createSandbox: context.createSandbox,
    maxOutputBytes: context.maxOutputBytes,
    ...context.repositoryOptions,
  });
}

/**
 * An agent attempt's gate: an agent runs only on a task whose baseline tests failed as they
 * should. The baseline's result goes to the agent attempt's context; its clone is removed, its
 * logs stay.
 */
export async function gateOnBaseline(context: AttemptContext, outcome: AttemptOutcome): Promise<void> {
  const baselineDir = path.join(context.paths.runDir, 'baseline');
  context.baseline = outcome.record.baseline_validation;
  if (outcome.passingTestKeys !== undefined) context.baselinePassingKeys = outcome.passingTestKeys;
  await rm(path.join(baselineDir, 'workspace'), { recursive: true, force: true });
  context.artifact('baseline_logs', path.join(baselineDir, 'logs'));
  if (!outcome.isSuccess) {
    throw new AttemptStop(outcome.failureReason ?? 'BASELINE_MISMATCH', `baseline: ${outcome.message}`, outcome.record.baseline_validation.exit_code ?? undefined);
  }
  context.throwIfAborted();
}
