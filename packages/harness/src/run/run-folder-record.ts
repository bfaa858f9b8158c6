import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';
import { relativeToRun } from '../artifacts/attempt-paths.js';

/** `artifact_paths` entries that hold several paths, comma-separated. */
const PATH_LIST_KEYS: ReadonlySet<string> = new Set(['patch_files']);

function rebase(prefix: string, value: string): string {
  if (value === '' || path.isAbsolute(value)) return value;
  return path.posix.join(prefix, value);
}

/**
 * The copy of a try's record that goes to the run's own `attempts.jsonl`. A record's artifact
 * paths are relative to the folder of the file holding it: the try's `attempt.json` has them
 * relative to the try folder, so this copy has them relative to the run folder (`<model>/agent_runs/
 * <task>/r1-try1/events.jsonl`), and a reader of the run folder finds the try's files.
 */
export function runFolderRecord(record: AttemptRecord, runDir: string, tryDir: string): AttemptRecord {
  const prefix = relativeToRun(runDir, tryDir);
  const artifactPaths = Object.fromEntries(
    Object.entries(record.artifact_paths).map(([key, value]) => [key, PATH_LIST_KEYS.has(key) ? value.split(',').map((item) => rebase(prefix, item)).join(',') : rebase(prefix, value)]),
  );
  return { ...record, artifact_paths: artifactPaths };
}
