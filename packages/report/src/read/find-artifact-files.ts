import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** The files a report reads, found under one RUN_DIR. Absolute paths, sorted. */
export interface ArtifactFiles {
  /** `run.json` of suite, task and agent runs. */
  runRecords: string[];
  /** `attempts.jsonl`: one AttemptRecord per line. */
  attemptLists: string[];
  /** `attempt.json`: an agent run's AttemptRecord (or the harness's per-task details, told apart by content). */
  attemptFiles: string[];
  /** `events.jsonl` of agent runs. */
  eventLogs: string[];
  /** `result.json` of scenario runs. */
  scenarioResults: string[];
  /** `summary.json` of matrix runs. */
  matrixSummaries: string[];
}

// Checked-out repositories and dependency folders hold no artifacts and can be huge.
const SKIPPED_FOLDERS = new Set(['workspace', 'node_modules', '.git', 'site-packages', '__pycache__', 'diffs']);
// Not a run's attempts: try folders a stopped `ab run` left without a record (moved aside on resume),
// and replays (`ab replay` writes them to `replays/`). Read them by naming the folder itself.
const NOT_ATTEMPTS_FOLDERS = new Set(['.interrupted', 'replays']);
// An attempt folder `ab replay` wrote (replays written into their run's folder by older versions too).
const REPLAY_MARKER = 'replay.json';
const MAX_DEPTH = 8;

/**
 * Walks `root` (not into work trees or dependency folders) and lists the artifact files by kind.
 * Below `root`, replays and set-aside tries are not the run's attempts and are skipped; a root
 * inside a `replays` folder (or a replay's own folder) reads its replays.
 */
export async function findArtifactFiles(root: string): Promise<ArtifactFiles> {
  const isReadingReplays = root.split(path.sep).includes('replays');
  const found: ArtifactFiles = { runRecords: [], attemptLists: [], attemptFiles: [], eventLogs: [], scenarioResults: [], matrixSummaries: [] };
  const byName: Record<string, keyof ArtifactFiles> = {
    'run.json': 'runRecords',
    'attempts.jsonl': 'attemptLists',
    'attempt.json': 'attemptFiles',
    'events.jsonl': 'eventLogs',
    'result.json': 'scenarioResults',
    'summary.json': 'matrixSummaries',
  };
  async function walk(folder: string, depth: number): Promise<void> {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    // A suite run's `validity/` (--oracle-runs) holds the oracle and baseline reruns: its own section, not rows.
    const isRunFolder = entries.some((entry) => entry.isFile() && entry.name === 'run.json');
    if (depth > 0 && !isReadingReplays && entries.some((entry) => entry.isFile() && entry.name === REPLAY_MARKER)) return;
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (isRunFolder && entry.name === 'validity') continue;
        if (NOT_ATTEMPTS_FOLDERS.has(entry.name)) continue;
        if (depth < MAX_DEPTH && !SKIPPED_FOLDERS.has(entry.name)) await walk(full, depth + 1);
      } else if (entry.isFile()) {
        const kind = byName[entry.name];
        if (kind !== undefined) found[kind].push(full);
      }
    }
  }
  await walk(root, 0);
  for (const list of Object.values(found)) list.sort();
  return found;
}
