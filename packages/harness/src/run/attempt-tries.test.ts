import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { RUN_STOPPED_CAUSE } from '@agentbench/scoring';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeAttemptRecord } from '../../test/helpers/fake-attempt-record.js';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { attemptTryState, isRunStop } from './attempt-tries.js';
import { runAgentRun, type AttemptTryInput } from './run-agent-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');

/** What the pipeline records when the agent raised an interrupt itself (before it became AGENT_GAVE_UP, or a test exit 130). */
const agentInterrupt = { reason: 'INTERRUPTED', stage: 'agent_run', failureClass: 'agent', cause: 'interrupted without the harness aborting the attempt: the agent or its own command ended it' } as const;
/** An infra interruption that is not the run stopping (an older record, or another harness signal). */
const infraInterrupt = { reason: 'INTERRUPTED', stage: 'agent_run', failureClass: 'infra' } as const;
const runStop = { reason: 'INTERRUPTED', stage: 'agent_run', failureClass: 'infra', cause: RUN_STOPPED_CAUSE } as const;
const infra = { reason: 'SANDBOX_ERROR', stage: 'git_clone', failureClass: 'infra' } as const;

let root: string;
let task: LoadedTask;
beforeAll(async () => {
  task = await loadTask(toyTask);
});
beforeEach(() => {
  root = makeTemporaryDirectory('attempt-tries');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function linesOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AttemptRecord);
}

/** Runs one attempt whose tries all return `record`; stops the run after 10 tries so a loop fails the test instead of hanging it. */
async function runTries(retries: number, record: (input: AttemptTryInput) => AttemptRecord) {
  const runDir = path.join(root, 'run');
  const controller = new AbortController();
  let tries = 0;
  const run = await runAgentRun({
    tasks: [task],
    runs: 1,
    retries,
    retryBackoffMs: 0,
    outDir: runDir,
    signal: controller.signal,
    runAttempt: async (input) => {
      tries += 1;
      if (tries >= 10) controller.abort();
      return record(input);
    },
  });
  return { run, tries, records: await linesOf(runDir) };
}

describe('runAgentRun: who caused an interruption decides whether it is tried again', () => {
  it('takes an interrupt the agent raised as its own final failure: one try, class agent, counted', async () => {
    const { run, tries, records } = await runTries(1, (input) => fakeAttemptRecord(input, agentInterrupt));
    expect(tries).toBe(1);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ try: 1, errored: false, failure_class: 'agent' });
    expect(run.progress).toMatchObject({ done: 1, failed: 1, errored: 0, retried: 0 });
    expect(run.isComplete).toBe(true);
  });

  it('counts an infra interruption that is not the run stopping against --retries: bounded tries, then errored', async () => {
    const { tries, records } = await runTries(1, (input) => fakeAttemptRecord(input, infraInterrupt));
    expect(tries).toBe(2);
    expect(records.map((record) => [record.try, record.errored])).toEqual([[1, false], [2, true]]);
  });
});

describe('attemptTryState', () => {
  const input = { attempt: { attemptId: 'm/t/r1', task: { task: { id: 't', suite: 's' } }, model: null }, try: 1 } as unknown as AttemptTryInput;
  const recordOf = (failure: Parameters<typeof fakeAttemptRecord>[1], tryNumber: number): AttemptRecord => ({ ...fakeAttemptRecord({ ...input, try: tryNumber }, failure), try: tryNumber });

  it('does not count a try the run\'s stop cut off against --retries, and runs it again', () => {
    expect(isRunStop(recordOf(runStop, 1))).toBe(true);
    expect(isRunStop(recordOf(infraInterrupt, 1))).toBe(false);
    expect(attemptTryState([recordOf(runStop, 1)], 0)).toMatchObject({ isComplete: false, nextTry: 2, infraTries: 0 });
    expect(attemptTryState([recordOf(runStop, 1), recordOf(infra, 2), recordOf(runStop, 3)], 1)).toMatchObject({ isComplete: false, nextTry: 4, infraTries: 1 });
    expect(attemptTryState([recordOf(runStop, 1), recordOf(infra, 2), recordOf(infra, 3)], 1)).toMatchObject({ isComplete: true, infraTries: 2 });
  });

  it('makes an agent-class interruption final, whatever the retries left', () => {
    expect(attemptTryState([recordOf(agentInterrupt, 1)], 5)).toMatchObject({ isComplete: true, infraTries: 0 });
  });
});
