import { CassetteFileError } from './errors/cassette-file-error.js';
import type { Cassette } from './read-cassette.js';

/**
 * Refuses a cassette recorded for another task, scenario or repeat: served to the wrong run it
 * would diverge at the first request, or worse, match and mislead.
 */
export function checkCassetteRun(cassette: Cassette, expected: { taskId?: string | null; scenarioId?: string | null; repeatIndex?: number }): void {
  const { header } = cassette;
  const mismatch = (what: string, recorded: unknown, wanted: unknown): CassetteFileError =>
    new CassetteFileError(cassette.file, 1, `recorded for ${what} ${JSON.stringify(recorded ?? null)}, not ${JSON.stringify(wanted ?? null)}: this cassette belongs to another run`);
  if (expected.taskId !== undefined && (header.task_id ?? null) !== expected.taskId) throw mismatch('task', header.task_id, expected.taskId);
  if (expected.scenarioId !== undefined && (header.scenario_id ?? null) !== expected.scenarioId) throw mismatch('scenario', header.scenario_id, expected.scenarioId);
  if (expected.repeatIndex !== undefined && header.repeat_index !== expected.repeatIndex) throw mismatch('repeat', header.repeat_index, expected.repeatIndex);
}
