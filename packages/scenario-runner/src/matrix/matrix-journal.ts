import { mkdir, readFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { appendJsonLine, writeJsonAtomic } from '@agentbench/helpers';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
/** What the journal needs of a matrix run's record. */
export interface JournalledRun {
  combination: string;
  repeat: number;
}

/** One line per finished run, flushed as it finishes: what a resume keeps. */
export const MATRIX_JOURNAL_FILE = 'runs.jsonl';
/** What the matrix run is: a resume must ask for the same. */
export const MATRIX_PLAN_FILE = 'matrix-plan.json';

export interface MatrixPlanFile {
  version: 1;
  matrix_file: string;
  filter: string | null;
  seed: number;
  runs_per_combination: number;
  combinations: string[];
}

/** The key of a run in the journal: its combination and repeat. */
export function matrixRunKey(record: { combination: string; repeat: number }): string {
  return `${record.combination}#${record.repeat}`;
}

export async function writeMatrixPlan(outputDir: string, plan: MatrixPlanFile): Promise<void> {
  await mkdir(outputDir, { recursive: true });
  await writeJsonAtomic(path.join(outputDir, MATRIX_PLAN_FILE), plan);
}

export async function readMatrixPlan(outputDir: string): Promise<MatrixPlanFile> {
  const file = path.join(outputDir, MATRIX_PLAN_FILE);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as MatrixPlanFile;
  } catch (error) {
    throw new ScenarioRunnerError('configuration', `--resume: cannot read ${file} (${(error as Error).message}); expected the folder of a matrix run started by this version`);
  }
}

/** Refuses a resume that asks for another matrix run, naming the field that differs. */
export function assertSameMatrixPlan(outputDir: string, recorded: MatrixPlanFile, requested: MatrixPlanFile): void {
  for (const field of ['matrix_file', 'filter', 'seed', 'runs_per_combination', 'combinations'] as const) {
    if (JSON.stringify(recorded[field]) !== JSON.stringify(requested[field])) {
      throw new ScenarioRunnerError('configuration', `--resume: ${outputDir} was started with another plan (${field}: the run has ${JSON.stringify(recorded[field])}, this command asks for ${JSON.stringify(requested[field])})`);
    }
  }
}

/** Appends a finished run and syncs it to disk before returning. */
export async function appendMatrixRun(outputDir: string, record: JournalledRun): Promise<void> {
  await appendJsonLine(path.join(outputDir, MATRIX_JOURNAL_FILE), record);
}

/** The finished runs of the journal, the last per key; a torn last line (a kill mid-write) is cut off. */
export async function readMatrixJournal<Run extends JournalledRun>(outputDir: string): Promise<Map<string, Run>> {
  const file = path.join(outputDir, MATRIX_JOURNAL_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return new Map();
  }
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  if (complete.length < text.length) await truncate(file, Buffer.byteLength(complete));
  const finished = new Map<string, Run>();
  complete.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const record = JSON.parse(line) as Run;
      finished.set(matrixRunKey(record), record);
    } catch {
      throw new ScenarioRunnerError('configuration', `--resume: ${file} line ${index + 1} is not valid JSON; fix or remove that line to resume`);
    }
  });
  return finished;
}
