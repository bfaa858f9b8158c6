import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentLoadError } from '@agentbench/agent-loop';
import { loadTask, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { UnstartablePlanError } from '../errors/unstartable-plan-error.js';
import { runAgentRun, type AgentRunEvent } from './run-agent-run.js';
import { readKnownValidity, taskValidityNote, validityWarnings } from './task-validity.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const customDev = path.resolve(here, '../../../../tasks/custom-dev');

let root: string;
let scripted: LoadedTask;
let unscripted: LoadedTask;
beforeAll(async () => {
  scripted = await loadTask(path.join(customDev, 'toy_fail_pytest/task.yaml'));
  unscripted = await loadTask(path.join(customDev, 'toy_pass_pytest/task.yaml'));
});
beforeEach(() => {
  root = makeTemporaryDirectory('not-started');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function recordsOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AttemptRecord);
}

/** A validate-suite run folder as `ab validate-suite` leaves it: run.json (suite_baseline) and one baseline record per task. */
async function writeBaselineRun(dir: string, createdAt: string, baselines: Record<string, boolean>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'run.json'), JSON.stringify({ run_id: 'r', kind: 'suite_baseline', created_at: createdAt, finished_at: createdAt, harness_version: '0', suite: 'custom-dev', task_ids: Object.keys(baselines), options: {}, status: 'completed', counts: null }));
  const lines = Object.entries(baselines).map(([taskId, failedAsExpected]) => {
    const record = fakeAttemptRecord({ attempt: { attemptId: taskId, task: { ...scripted, task: { ...scripted.task, id: taskId } }, model: null } } as never, failedAsExpected ? undefined : { reason: 'BASELINE_NOT_FAILING', stage: 'baseline', failureClass: 'task' });
    return JSON.stringify({ ...record, baseline_validation: { attempted: true, failed_as_expected: failedAsExpected, exit_code: failedAsExpected ? 1 : 0, failure_reason: failedAsExpected ? null : 'BASELINE_NOT_FAILING' } });
  });
  await writeFile(path.join(dir, 'attempts.jsonl'), `${lines.join('\n')}\n`);
}

describe('attempts that cannot start', () => {
  it('refuses a plan whose scripted agent has no script for some tasks, one line per task, before the run folder exists', async () => {
    const runDir = path.join(root, 'run');
    const failure = await runAgentRun({ tasks: [scripted, unscripted], outDir: runDir, validityRunsDir: root }).catch((error: unknown) => error);
    expect(UnstartablePlanError.isInstance(failure)).toBe(true);
    const message = (failure as Error).message;
    expect(message).toMatch(/^1 of 2 tasks cannot start with the scripted agent; nothing was run:\n {2}toy_pass_pytest: no script: /);
    expect(message).toMatch(/\nto fix: add agent.script to the task, or run it with another agent/);
    expect(message).not.toMatch(/toy_fail_pytest/);
    await expect(stat(runDir)).rejects.toThrow(/ENOENT/);
  });

  it('records an attempt whose agent fails to load at attempt time as errored, with why, and a resume has nothing left to run', async () => {
    const runDir = path.join(root, 'run');
    const tasks = [scripted, { ...scripted, task: { ...scripted.task, id: 'task_b' } }];
    const runAttempt = async (input: Parameters<NonNullable<Parameters<typeof runAgentRun>[0]['runAttempt']>>[0]): Promise<AttemptRecord> => {
      if (input.attempt.task.task.id === 'task_b') throw new AgentLoadError('./agent.mjs', 'its factory threw: boom');
      return fakeAttemptRecord(input);
    };
    const run = await runAgentRun({ tasks, outDir: runDir, runAttempt, validityRunsDir: root });
    expect(run.progress).toMatchObject({ total: 2, done: 2, passed: 1, errored: 1 });
    expect(run.isComplete).toBe(true);
    const errored = (await recordsOf(runDir)).find((record) => record.task_id === 'task_b');
    expect(errored).toMatchObject({ errored: true, attempt_id: 'scripted/task_b/r1', try: 1, not_started: { reason: 'agent failed to load', message: 'agent "./agent.mjs": its factory threw: boom' } });
    const inTryFolder = JSON.parse(await readFile(path.join(runDir, 'scripted/agent_runs/task_b/r1-try1/attempt.json'), 'utf8')) as AttemptRecord;
    expect(inTryFolder.not_started?.reason).toBe('agent failed to load');
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { status: string; counts: Record<string, number> };
    expect(runJson).toMatchObject({ status: 'completed', counts: { total: 2, passed: 1, errored: 1, skipped: 0 } });

    let tries = 0;
    const resumed = await runAgentRun({ resume: runDir, tasks, validityRunsDir: root, runAttempt: async (input) => ((tries += 1), fakeAttemptRecord(input)) });
    expect(tries).toBe(0);
    expect(resumed.progress).toMatchObject({ done: 2, errored: 1 });
  });
});

describe('task validity', () => {
  it('reads the latest validate-suite run that judged each task, and leaves unverified tasks out of pass rates unless included', async () => {
    await writeBaselineRun(path.join(root, 'old'), '2026-01-01T00:00:00.000Z', { toy_fail_pytest: false, toy_pass_pytest: true });
    await writeBaselineRun(path.join(root, 'new'), '2026-02-01T00:00:00.000Z', { toy_pass_pytest: false });
    const other = { ...scripted, task: { ...scripted.task, id: 'never_validated' } };
    const known = await readKnownValidity(root, [scripted, unscripted, other]);
    expect(known.get('toy_pass_pytest')).toEqual({ status: 'unverified', reason: 'BASELINE_NOT_FAILING', source: path.join(root, 'new', 'attempts.jsonl') });
    expect(known.get('toy_fail_pytest')).toMatchObject({ status: 'unverified' });
    expect(known.has('never_validated')).toBe(false);

    const record = fakeAttemptRecord({ attempt: { attemptId: 'x', task: unscripted, model: null }, try: 1 } as never);
    const plan = { skip_baseline: true, include_unvalidated: false };
    expect(taskValidityNote(record, known.get('toy_pass_pytest'), plan)).toMatchObject({ status: 'unverified', reason: 'BASELINE_NOT_FAILING', counted: false });
    expect(taskValidityNote(record, known.get('toy_pass_pytest'), { ...plan, include_unvalidated: true })).toMatchObject({ status: 'unverified', counted: true });
    expect(taskValidityNote(record, undefined, plan)).toEqual({ status: 'unvalidated', counted: true });
    // --validate-baseline: the attempt's own baseline decides.
    const ownBaseline = { ...record, baseline_validation: { attempted: true, failed_as_expected: true, exit_code: 1, failure_reason: null } };
    expect(taskValidityNote(ownBaseline, known.get('toy_pass_pytest'), { ...plan, skip_baseline: false })).toEqual({ status: 'valid', source: '--validate-baseline', counted: true });

    const warnings = validityWarnings([unscripted, other], known, plan);
    expect(warnings[0]).toMatch(/^toy_pass_pytest: baseline not shown to fail \(BASELINE_NOT_FAILING, in .*attempts.jsonl\): its attempts are marked "unverified task" and left out of pass rates \(--include-unvalidated counts them\)$/);
    expect(warnings[1]).toBe('1 task never validated (never_validated): reported as unvalidated; validate first with ab validate-suite --suite custom-dev, or run with --validate-baseline');
  });

  it('writes each attempt\'s task validity into its record and warns before the run starts', async () => {
    await writeBaselineRun(path.join(root, 'validated'), '2026-01-01T00:00:00.000Z', { toy_pass_pytest: false });
    const events: AgentRunEvent[] = [];
    const runDir = path.join(root, 'out', 'run');
    await runAgentRun({ tasks: [scripted, unscripted], outDir: runDir, validityRunsDir: root, runAttempt: async (input) => fakeAttemptRecord(input), onProgress: (event) => events.push(event) });
    const byTask = new Map((await recordsOf(runDir)).map((record) => [record.task_id, record]));
    expect(byTask.get('toy_pass_pytest')?.task_validity).toMatchObject({ status: 'unverified', reason: 'BASELINE_NOT_FAILING', counted: false });
    expect(byTask.get('toy_fail_pytest')?.task_validity).toEqual({ status: 'unvalidated', counted: true });
    expect(events.filter((event) => event.type === 'validity-warning')).toHaveLength(2);
  });
});
