import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const cliBin = path.join(repoRoot, 'apps/cli/dist/bin.js');
const skip = dockerSkipReason('run-resume.docker.test.ts') ?? (existsSync(cliBin) ? undefined : 'apps/cli/dist/bin.js is not built (pnpm --filter @agentbench/cli build)');

interface Line {
  attempt_id?: string;
  try?: number;
  errored?: boolean;
  result: { passed: boolean; failure_reason: string | null };
}

async function readLines(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
}

function runAb(args: string[]): { exit: Promise<number | null>; pid: number; kill: () => void } {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { exit, pid: child.pid as number, kill: () => child.kill('SIGKILL') };
}

describe.skipIf(skip !== undefined)('ab run: kill -9, then --resume', () => {
  let scratch: string;
  let tasksDir: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-run-resume-'));
    tasksDir = path.join(scratch, 'tasks');
    const text = await readFile(path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'), 'utf8');
    const repository = path.join(repoRoot, 'fixtures/repos/toy_repo.git');
    for (const id of ['resume_a', 'resume_b', 'resume_c']) {
      await mkdir(path.join(tasksDir, 'resume-suite', id), { recursive: true });
      await writeFile(
        path.join(tasksDir, 'resume-suite', id, 'task.yaml'),
        text.replace('id: toy_fail_pytest', `id: ${id}`).replace('suite: custom-dev', 'suite: resume-suite').replace('url: ../../../fixtures/repos/toy_repo.git', `url: ${repository}`),
      );
    }
  });
  afterAll(async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('records every (task, run) exactly once and leaves no container behind', async () => {
    const runDir = path.join(scratch, 'run');
    const attemptsFile = path.join(runDir, 'attempts.jsonl');
    const first = runAb(['run', '--suite', 'resume-suite', '--tasks', tasksDir, '--agent', 'scripted', '--runs', '2', '-j', '2', '--out', runDir]);
    // Kill it once the first attempt is recorded, while others run.
    const deadline = Date.now() + 240_000;
    while ((await readLines(attemptsFile)).length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    first.kill();
    await first.exit;
    const beforeResume = await readLines(attemptsFile);
    expect(beforeResume.length).toBeGreaterThanOrEqual(1);
    expect(beforeResume.length).toBeLessThan(6);

    const second = runAb(['run', '--resume', runDir]);
    expect(await second.exit).toBe(0);

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

    const left = (await listManagedContainers()).filter((container) => container.creatorPid === first.pid || container.creatorPid === second.pid);
    expect(left).toEqual([]);
  }, 600_000);
});
