import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atifProblems } from '@agentbench/trajectories';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('export.docker.test.ts');

// One real attempt of the scripted agent (10-20 s); a hang still fails at 5 minutes.
describe.skipIf(skipReason !== undefined)('ab export --format atif on a real attempt of our own agent', { timeout: 300_000 }, () => {
  const scratch = useDockerScratch();

  it("writes the scripted agent's attempt on toy_fail_pytest as valid ATIF: its tool calls, their results, the tests and the verdict", async () => {
    const run = await runCli(['run-agent', '--task', toyTaskFile('toy_fail_pytest'), '--variant', 'scripted', '--out', path.join(scratch.path, 'runs')]);
    expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0);
    const runDir = /^artifacts: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    const record = JSON.parse(await readFile(path.join(runDir, 'attempt.json'), 'utf8')) as { run_id: string };
    scratch.runIds.push(record.run_id);

    const out = path.join(scratch.path, 'trajectory.json');
    const exported = await runCli(['export', '--format', 'atif', runDir, '--out', out]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const atif = JSON.parse(await readFile(out, 'utf8')) as { steps: Array<Record<string, any>>; [key: string]: unknown };
    expect(atifProblems(atif)).toEqual([]);
    expect(atif).toMatchObject({ schema_version: 'ATIF-v1.6', session_id: record.run_id, agent: { name: 'agentbench', extra: { variant: 'scripted' } }, extra: { task_id: 'toy_fail_pytest', passed: true, stop_reason: 'SUCCESS' } });
    const calls = atif.steps.flatMap((step) => (step.tool_calls ?? []).map((call: { function_name: string }) => call.function_name));
    expect(calls).toContain('apply_patch');
    expect(calls.length).toBeGreaterThanOrEqual(3);
    // Every call has its result, and the patch step names the files it changed.
    for (const step of atif.steps.filter((item) => item.tool_calls !== undefined)) expect(step.observation.results).toHaveLength(step.tool_calls.length);
    expect(atif.steps.some((step) => Array.isArray(step.extra?.files_changed) && step.extra.files_changed.length > 0)).toBe(true);
    expect(atif.steps.some((step) => step.source === 'system' && String(step.message).startsWith('tests'))).toBe(true);
  });
});
