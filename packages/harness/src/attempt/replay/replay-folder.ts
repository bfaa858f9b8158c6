import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** The folder replays go to by default, inside the run they replay from. Reports of the run skip it. */
export const REPLAYS_FOLDER = 'replays';

/** How far above an attempt folder its `ab run` folder can be: `<run>/<model>/agent_runs/<task>/<try>`. */
const RUN_FOLDER_DEPTH = 4;

async function isAgentRunFolder(folder: string): Promise<boolean> {
  try {
    const value = JSON.parse(await readFile(path.join(folder, 'run.json'), 'utf8')) as unknown;
    // Only `ab run` writes a plan into its run.json; an attempt's own run.json has none.
    return typeof value === 'object' && value !== null && 'plan' in value;
  } catch {
    return false;
  }
}

/**
 * Where a replay of `attemptDir` goes when no folder is named: never among the attempts it
 * replays, so no report counts it as one of them. An attempt of an `ab run` folder is replayed
 * into `<run>/replays/`; any other attempt (`<out>/agent_runs/<task>/<id>`) into `<out>/replays/`.
 * Either way the replay is `replays/agent_runs/<task>/<ulid>/`, with its `replay.json`.
 */
export async function defaultReplayFolder(attemptDir: string): Promise<string> {
  let folder = path.dirname(attemptDir);
  for (let depth = 1; depth <= RUN_FOLDER_DEPTH; depth += 1, folder = path.dirname(folder)) {
    if (await isAgentRunFolder(folder)) return path.join(folder, REPLAYS_FOLDER);
  }
  return path.join(path.resolve(attemptDir, '../../..'), REPLAYS_FOLDER);
}
