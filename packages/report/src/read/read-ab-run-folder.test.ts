import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptRecord } from '../../test/helpers/write-artifacts.js';
import { renderJsonReport } from '../render/render-json.js';
import { readRunFolders } from './read-run-folders.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-report-ab-run-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const jsonl = (values: unknown[]): string => values.map((value) => JSON.stringify(value)).join('\n') + '\n';

function eventsOf(runId: string, failureReason: string): string {
  const at = (second: number): string => `2025-03-01T11:00:0${second}.000Z`;
  return jsonl([
    { event_type: 'run_started', timestamp: at(0), run_id: runId, step: 0, payload: { task_id: 'toy', variant: 'scripted' } },
    { event_type: 'run_finished', timestamp: at(1), run_id: runId, step: 1, payload: { passed: false, stop_reason: 'AGENT_GAVE_UP', failure_reason: failureReason, steps: 1, duration_sec: 1 } },
  ]);
}

/** One try of an `ab run` attempt as runAgentAttempt writes its folder: attempt.json, attempts.jsonl, events.jsonl. */
async function writeTry(tryDir: string, record: AttemptRecord): Promise<void> {
  await mkdir(tryDir, { recursive: true });
  await writeFile(path.join(tryDir, 'attempt.json'), JSON.stringify(record));
  await writeFile(path.join(tryDir, 'attempts.jsonl'), jsonl([record]));
  await writeFile(path.join(tryDir, 'events.jsonl'), eventsOf(record.run_id, record.result.failure_reason ?? 'TESTS_FAILED'));
}

/**
 * An `ab run` folder with one attempt of two tries (an infrastructure failure, then the agent's),
 * a try folder moved aside by a resume, and a replay. `layout`: how the run's attempts.jsonl names
 * the try files: `old` relative to the try folder (runs written before), `new` to the run folder.
 */
async function writeAbRun(layout: 'old' | 'new'): Promise<string> {
  const runDir = path.join(root, 'run');
  const tryRecord = (attemptTry: number, reason: 'SANDBOX_ERROR' | 'TESTS_FAILED', failureClass: 'infra' | 'agent'): AttemptRecord =>
    attemptRecord({
      task_id: 'toy',
      run_id: `01TRY${attemptTry}`,
      timestamp_start: `2025-03-01T10:0${attemptTry}:00.000Z`,
      variant: 'scripted',
      baseline_validation: { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null },
      result: { passed: false, exit_code: 1, failure_reason: reason, stop_reason: 'AGENT_GAVE_UP' },
      artifact_paths: { events: 'events.jsonl', attempt: 'attempt.json' },
      attempt_id: 'scripted/toy/r1',
      repeat: 1,
      try: attemptTry,
      errored: false,
      failure_class: failureClass,
    });
  const tries = [tryRecord(1, 'SANDBOX_ERROR', 'infra'), tryRecord(2, 'TESTS_FAILED', 'agent')];
  for (const record of tries) await writeTry(path.join(runDir, 'scripted', 'agent_runs', 'toy', `r1-try${record.try}`), record);
  const runCopies = tries.map((record) =>
    layout === 'old' ? record : { ...record, artifact_paths: { events: `scripted/agent_runs/toy/r1-try${record.try}/events.jsonl`, attempt: `scripted/agent_runs/toy/r1-try${record.try}/attempt.json` } },
  );
  await writeFile(path.join(runDir, 'attempts.jsonl'), jsonl(runCopies));
  await writeFile(
    path.join(runDir, 'run.json'),
    JSON.stringify({ run_id: '01RUN', kind: 'agent', created_at: '2025-03-01T10:00:00.000Z', finished_at: '2025-03-01T10:05:00.000Z', harness_version: '0.1.0', suite: 'custom-dev', task_ids: ['toy'], options: {}, status: 'completed', counts: null }),
  );
  // A try cut off by a kill -9, moved aside by the resume: only events, never a record.
  const aside = path.join(runDir, '.interrupted', 'scripted__agent_runs__toy__r1-try3-01ASIDE');
  await mkdir(aside, { recursive: true });
  await writeFile(path.join(aside, 'events.jsonl'), eventsOf('01ASIDE', 'INTERRUPTED'));
  // A replay where ab replay puts it now, and one an older version wrote among the run's attempts.
  for (const replayDir of [path.join(runDir, 'replays', 'agent_runs', 'toy', '01REPLAY'), path.join(runDir, 'scripted', 'agent_runs', 'toy', '01OLDREPLAY')]) {
    await writeTry(replayDir, attemptRecord({ task_id: 'toy', run_id: path.basename(replayDir), variant: 'scripted', artifact_paths: { events: 'events.jsonl' } }));
    await writeFile(path.join(replayDir, 'replay.json'), JSON.stringify({ replay_of: { run_dir: 'x' } }));
  }
  return runDir;
}

describe('readRunFolders on an ab run folder', () => {
  it.each(['old', 'new'] as const)('shows each attempt once, its last try with the earlier one as retried, linked to its files (%s layout)', async (layout) => {
    const runDir = await writeAbRun(layout);
    const model = await readRunFolders([runDir]);
    expect(model.rows).toHaveLength(1);
    const row = model.rows[0]!;
    const tryDir = path.join(runDir, 'scripted', 'agent_runs', 'toy', 'r1-try2');
    expect(row).toMatchObject({ taskId: 'toy', status: 'failed', failureReason: 'TESTS_FAILED', folder: tryDir, retriedTries: [{ try: 1, failureReason: 'SANDBOX_ERROR', failureClass: 'infra' }] });
    expect(row.detail.timeline.map((entry) => entry.title)).toContain('run started (scripted)');
    expect(row.detail.notes).toContain('try 1: SANDBOX_ERROR (infra), retried');
    const json = JSON.parse(renderJsonReport(model)) as { rows: Array<Record<string, unknown>>; summary: { overall: { attempts: number; passed: number } } };
    expect(json.summary.overall).toMatchObject({ attempts: 1, passed: 0 });
    expect(json.rows[0]?.['retried_tries']).toEqual([{ try: 1, failure_reason: 'SANDBOX_ERROR', failure_class: 'infra' }]);
  });

  it('reads the replays when their folder is named', async () => {
    const runDir = await writeAbRun('new');
    const model = await readRunFolders([path.join(runDir, 'replays')]);
    expect(model.rows.map((row) => row.folder)).toEqual([path.join(runDir, 'replays', 'agent_runs', 'toy', '01REPLAY')]);
  });
});
