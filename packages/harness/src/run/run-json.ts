import path from 'node:path';
import { readArtifactFile, RunRecordSchema, type RunRecord } from '@agentbench/schemas';
import { pathExists } from '@agentbench/helpers';
import { writeRunJson } from '../artifacts/run-directory.js';
import { ArtifactWriteError } from '../errors/artifact-write-error.js';

// The one module that writes a run folder's run.json (every run kind's: task, suite baseline, agent):
// its "running" state when the run starts or resumes, and its end. The driver calls it; plans never do.

export const RUN_JSON_FILE = 'run.json';

/** Why a folder named for a resume has no run.json: the folder is missing, or it has none. */
export type MissingRunJson = 'no such folder' | 'it has no run.json';

/**
 * Reads the run.json of a folder to resume, through its schema. A missing one is the caller's error
 * (`missing`: each command says what folder it expected); an unreadable, invalid or oversized one
 * throws readArtifactFile's error, naming the file, the field, what was expected and what was found.
 */
export async function readRunJson(runDir: string, missing: (problem: MissingRunJson) => Error): Promise<RunRecord> {
  const file = path.join(runDir, RUN_JSON_FILE);
  if (!(await pathExists(file))) throw missing((await pathExists(runDir)) ? 'it has no run.json' : 'no such folder');
  return readArtifactFile(file, RunRecordSchema, 'a run record (the run.json of an ab run folder)');
}

/** Writes run.json as the run starts or resumes (status "running"). */
export async function writeRunningRunJson(runDir: string, record: RunRecord): Promise<void> {
  await writeRunJson(path.join(runDir, RUN_JSON_FILE), record);
}

/**
 * Writes the finished run.json, then throws the run's own failure if it had one. The disk that
 * failed an attempt may refuse run.json too: run.json then keeps "running", and the error says so
 * and where the finished records are.
 */
export async function writeFinishedRunJson(runDir: string, record: RunRecord & Record<string, unknown>, failure: unknown, recordsFile: string): Promise<void> {
  const file = path.join(runDir, RUN_JSON_FILE);
  try {
    await writeRunJson(file, record);
  } catch (error) {
    if (!ArtifactWriteError.isInstance(error) || (failure !== undefined && !ArtifactWriteError.isInstance(failure))) throw failure ?? error;
    const first = failure ?? error;
    throw new ArtifactWriteError(first.path, first.code, {
      cause: first,
      note: `${file} still says "running" (it could not be updated either); the finished records are in ${recordsFile}`,
    });
  }
  if (failure !== undefined) throw failure;
}
