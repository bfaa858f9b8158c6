import type { LoadedTask } from '@agentbench/schemas';
import { ulid } from 'ulid';
import { suiteAttemptPaths, type AttemptPaths } from '../artifacts/attempt-paths.js';
import { executeAttempt, type AttemptOptions, type AttemptOutcome } from './execute-attempt.js';

export interface ValidateBaselineOptions extends Omit<AttemptOptions, 'paths' | 'runId'> {
  /** The run directory; logs go to `<runDir>/logs/<task_id>/`, the workspace to `<runDir>/workspace/<task_id>/`. */
  runDir: string;
  /** Overrides the default layout under `runDir`. */
  paths?: Partial<Omit<AttemptPaths, 'runDir'>>;
  /** Default: a new ULID. */
  runId?: string;
}

/**
 * Baseline validation of one task, as the spec describes: clone and pin the repository, run
 * setup with network, check that setup left the work tree clean (`enforce_clean_setup`), run
 * the test command without network and require it to fail, check every `validation`
 * expectation, and rerun the tests when time allows to catch a flaky baseline. The outcome's
 * `isSuccess` says whether the task is valid; otherwise `failureReason` says why not. It does
 * not append the record anywhere: `validateSuite` and embedders do.
 */
export async function validateBaseline(loaded: LoadedTask, options: ValidateBaselineOptions): Promise<AttemptOutcome> {
  const { runDir, paths, runId, ...rest } = options;
  return executeAttempt(loaded, 'baseline', {
    ...rest,
    paths: { ...suiteAttemptPaths(runDir, loaded.task.id), ...paths, runDir },
    runId: runId ?? ulid(),
  });
}
