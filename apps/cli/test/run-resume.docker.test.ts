import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { listManagedContainers } from '@agentbench/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { abBinSkipReason, runAb, startAb } from './run-ab.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skip = dockerSkipReason('run-resume.docker.test.ts') ?? abBinSkipReason('run-resume.docker.test.ts');

interface Line {
  attempt_id?: string;
  try?: number;
  errored?: boolean;
  result: { passed: boolean; failure_reason: string | null };
}

/** Ids of what the engine holds with our labels for this run: containers, or images (sandbox snapshots, gVisor moves). */
function labelledWithRun(kind: 'ps' | 'images', runId: string): string[] {
  const listAll = kind === 'ps' ? ['ps', '-aq'] : ['images', '-q'];
  const output = execFileSync('docker', [...listAll, '--filter', 'label=dev.agentbench.managed=true', '--filter', `label=dev.agentbench.run-id=${runId}`], { encoding: 'utf8' });
  return output.split('\n').filter((line) => line.trim() !== '');
}

async function readLines(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
}

describe.skipIf(skip !== undefined)('ab run: kill -9, then --resume', () => {
  // The containers left are checked by the pids of the two `ab` processes, in the test.
  const scratch = useDockerScratch();
  let tasksDir: string;

  beforeAll(async () => {
    tasksDir = path.join(scratch.path, 'tasks');
    for (const id of ['resume_a', 'resume_b', 'resume_c']) {
      await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(tasksDir, 'resume-suite', id), id, suite: 'resume-suite' });
    }
  });

  it('records every (task, run) exactly once and leaves no container or image behind', async () => {
    const runDir = path.join(scratch.path, 'run');
    const attemptsFile = path.join(runDir, 'attempts.jsonl');
    const first = startAb(['run', '--suite', 'resume-suite', '--tasks', tasksDir, '--agent', 'scripted', '--runs', '2', '-j', '2', '--out', runDir]);
    // Kill it once the first attempt is recorded, while others run.
    const deadline = Date.now() + 240_000;
    while ((await readLines(attemptsFile)).length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    first.kill();
    await first.exit;
    const { run_id: runId } = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { run_id: string };
    try {
      await resumeAndCheck(runDir, attemptsFile, first.pid);
    } finally {
      // kill -9 runs no handler of `ab`: a snapshot image it was committing (or had not yet removed) can outlive the
      // resume, which removes the killed run's containers. `ab cleanup --run-id` is how a user removes what a run
      // left; it must leave nothing of the run, whatever the test's end (CI's leftover check counts images too).
      const cleanup = await runAb(['cleanup', '--run-id', runId]);
      console.log(`ab cleanup --run-id: ${cleanup.stdout.trim().split('\n').slice(-1)[0] ?? ''}`);
      expect(cleanup.exitCode, cleanup.stderr.slice(-2000)).toBe(0);
      expect({ containers: labelledWithRun('ps', runId), images: labelledWithRun('images', runId) }).toEqual({ containers: [], images: [] });
    }
  }, 600_000);

  /** Resumes the killed run: every (task, run) recorded once, and no container of either `ab` left. */
  async function resumeAndCheck(runDir: string, attemptsFile: string, firstPid: number): Promise<void> {
    const beforeResume = await readLines(attemptsFile);
    expect(beforeResume.length).toBeGreaterThanOrEqual(1);
    expect(beforeResume.length).toBeLessThan(6);

    const second = startAb(['run', '--resume', runDir]);
    const resumed = await second.exit;
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);

    const lines = await readLines(attemptsFile);
    const pairs = lines.map((line) => `${line.attempt_id}#${line.try}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    const finals = new Map<string, Line>();
    for (const line of lines) finals.set(line.attempt_id as string, line);
    expect([...finals.keys()].sort()).toEqual(['resume_a', 'resume_b', 'resume_c'].flatMap((task) => [1, 2].map((repeat) => `scripted/${task}/r${repeat}`)).sort());
    // Every attempt ended on a verdict (the scripted fix passes unless the host is too loaded for the task's time limits).
    const unfinished = [...finals.entries()].filter(([, line]) => line.result.failure_reason === 'INTERRUPTED' || line.errored === true);
    expect(unfinished).toEqual([]);
    console.log(`final outcomes: ${[...finals.entries()].map(([id, line]) => `${id}#${line.try}=${line.result.passed ? 'passed' : line.result.failure_reason}`).join(', ')}`);
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { status: string; counts: { total: number; skipped: number } };
    expect(runJson).toMatchObject({ status: 'completed', counts: { total: 6, skipped: 0 } });

    const left = (await listManagedContainers()).filter((container) => container.creatorPid === firstPid || container.creatorPid === second.pid);
    expect(left).toEqual([]);
  }
});
