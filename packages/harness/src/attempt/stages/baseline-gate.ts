import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedTask } from '@agentbench/schemas';
import type { AttemptPaths } from '../../artifacts/attempt-paths.js';
import type { SandboxFactory } from '../../plan/sandbox-factory.js';
import type { MirrorRule } from '../../git/mirror-map.js';
import type { RepoCache } from '../../git/repo-cache.js';
import type { AttemptContext } from '../attempt-context.js';
import type { AttemptOutcome } from '../attempt-outcome.js';
import { AttemptStop } from '../attempt-stop.js';

/** Runs a whole baseline attempt (`validateBaseline`); passed in, as it is itself this pipeline. */
export type BaselineValidation = (
  loaded: LoadedTask,
  options: {
    runDir: string;
    runId: string;
    paths: Omit<AttemptPaths, 'runDir'>;
    createSandbox: SandboxFactory;
    maxOutputBytes: number;
    mirrors?: readonly MirrorRule[];
    cache?: RepoCache;
    signal?: AbortSignal;
  },
) => Promise<AttemptOutcome>;

/**
 * An agent attempt's first stage: the task's baseline is validated in a sandbox of its own
 * (`<runDir>/baseline/`), and an agent runs only on a task whose tests fail as they should.
 * The baseline's clone is removed afterwards; its logs stay.
 */
export async function validateBaselineFirst(context: AttemptContext, validate: BaselineValidation): Promise<void> {
  context.enterStage('baseline');
  const baselineDir = path.join(context.paths.runDir, 'baseline');
  const outcome = await validate(context.loaded, {
    runDir: context.paths.runDir,
    runId: context.runId,
    paths: { logDir: path.join(baselineDir, 'logs'), workspaceDir: path.join(baselineDir, 'workspace') },
    createSandbox: context.createSandbox,
    maxOutputBytes: context.maxOutputBytes,
    ...context.repositoryOptions,
  });
  context.baseline = outcome.record.baseline_validation;
  if (outcome.passingTestKeys !== undefined) context.baselinePassingKeys = outcome.passingTestKeys;
  await rm(path.join(baselineDir, 'workspace'), { recursive: true, force: true });
  context.artifact('baseline_logs', path.join(baselineDir, 'logs'));
  if (!outcome.isSuccess) {
    throw new AttemptStop(outcome.failureReason ?? 'BASELINE_MISMATCH', `baseline: ${outcome.message}`, outcome.record.baseline_validation.exit_code ?? undefined);
  }
  context.throwIfAborted();
}
