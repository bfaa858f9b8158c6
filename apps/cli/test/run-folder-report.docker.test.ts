import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const toyTask = path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml');
const skipReason = dockerSkipReason('run-folder-report.docker.test.ts');

interface JsonReport {
  summary: { overall: { attempts: number; passed: number; failed: number; errored: number } };
  rows: Array<{ task_id: string; status: string; folder: string | null }>;
}

async function reportOf(runDir: string): Promise<JsonReport> {
  const report = await runCli(['report', runDir, '--format', 'json']);
  expect(report.exitCode, report.stderr).toBe(0);
  return JSON.parse(report.stdout) as JsonReport;
}

// Two Docker attempts (the run's, the replay's), each with setup and a final test: minutes on a loaded machine.
describe.skipIf(skipReason !== undefined)('ab report and ab replay on a real ab run folder (Docker, scripted agent, toy task)', { timeout: 600_000 }, () => {
  let scratch: string;
  const runIds: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-run-folder-report-'));
  });

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it('reports one row per attempt, linked to its try folder, and a replay does not add one', async () => {
    const runDir = path.join(scratch, 'run');
    const run = await runCli(['run', '--task', toyTask, '--agent', 'scripted', '--out', runDir, '-j', '1', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const tryDir = path.join(runDir, 'scripted', 'agent_runs', 'toy_fail_pytest', 'r1-try1');
    const runLine = JSON.parse((await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim()) as { run_id: string; artifact_paths: Record<string, string> };
    runIds.push(runLine.run_id);
    // The run's copy of the record names the try's files from the run folder.
    expect(runLine.artifact_paths['events']).toBe('scripted/agent_runs/toy_fail_pytest/r1-try1/events.jsonl');

    const before = await reportOf(runDir);
    expect(before.summary.overall).toMatchObject({ attempts: 1 });
    expect(before.rows).toHaveLength(1);
    expect(before.rows[0]).toMatchObject({ task_id: 'toy_fail_pytest', folder: tryDir });
    const markdown = await runCli(['report', runDir, '--format', 'md']);
    expect(markdown.stdout).toMatch(/[01]\/1 passed/);

    const replay = await runCli(['replay', tryDir, '--json']);
    const printed = JSON.parse(replay.stdout) as { run_dir: string };
    runIds.push(path.basename(printed.run_dir));
    expect(path.dirname(printed.run_dir)).toBe(path.join(runDir, 'replays', 'agent_runs', 'toy_fail_pytest'));
    expect(await readdir(path.join(runDir, 'scripted', 'agent_runs', 'toy_fail_pytest'))).toEqual(['r1-try1']);

    const after = await reportOf(runDir);
    expect(after.summary.overall).toEqual(before.summary.overall);
    expect(after.rows.map((row) => row.folder)).toEqual([tryDir]);
  });

  it('says in one line that a folder to resume is not a run', async () => {
    const resumed = await runCli(['run', '--resume', path.join(scratch, 'no-such-run')]);
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr.trim().split('\n')).toHaveLength(1);
    expect(resumed.stderr).toContain('no-such-run: cannot resume: not an ab run folder (no such folder; expected the folder an `ab run --out` wrote, holding run.json)');
    expect(resumed.stderr).not.toContain('ENOENT');
  });
});
