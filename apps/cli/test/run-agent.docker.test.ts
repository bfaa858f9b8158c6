import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { scriptedPatchOf, toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const toyTask = toyTaskFile('toy_fail_pytest');

const skipReason = dockerSkipReason('run-agent.docker.test.ts');

interface Printed {
  run_dir: string;
  record: { run_id: string; variant: string; result: Record<string, unknown>; baseline_validation: Record<string, unknown>; metrics: Record<string, unknown>; artifact_paths: Record<string, string> };
}

// Real attempts on a shared 2-core CI machine can pass the 60 s default; a hang still fails at 5 minutes.
describe.skipIf(skipReason !== undefined)('ab run-agent in real Docker, with the real harness', { timeout: 300_000 }, () => {
  const scratch = useDockerScratch();

  it('the scripted agent fixes toy_fail_pytest after a failing baseline, and says where the artifacts are', async () => {
    const out = path.join(scratch.path, 'scripted');
    const run = await runCli(['run-agent', '--task', toyTask, '--variant', 'scripted', '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^toy_fail_pytest: PASSED \(scripted\) in .*, 4 steps: the 2 FAIL_TO_PASS tests pass and no PASS_TO_PASS test fails/);
    const runDir = /^artifacts: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(path.dirname(runDir)).toBe(path.join(out, 'agent_runs', 'toy_fail_pytest'));
    expect(run.stderr).toContain('toy_fail_pytest: baseline');
    expect(run.stderr).toContain('toy_fail_pytest: step 4: apply_patch → success');
    const record = JSON.parse(await readFile(path.join(runDir, 'attempt.json'), 'utf8')) as Printed['record'];
    scratch.runIds.push(record.run_id);
    expect(record.baseline_validation).toMatchObject({ attempted: true, failed_as_expected: true, exit_code: 1 });
    expect(record.result).toMatchObject({ passed: true, failure_reason: null, stop_reason: 'SUCCESS' });
    expect(existsSync(path.join(runDir, 'diffs', 'step_0004.patch'))).toBe(true);
    expect(existsSync(path.join(runDir, 'events.jsonl'))).toBe(true);
    expect((await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('--variant llm_v0 against the fake server fixes it too, with --json output', async () => {
    const patch = await scriptedPatchOf(toyTask);
    const server = await startFakeLlmServer({
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }], usage: { prompt_tokens: 1000, completion_tokens: 25 } },
        { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }], usage: { prompt_tokens: 1600, completion_tokens: 140 } },
      ],
    });
    const restoreEnvironment = applyEnvironment({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
    try {
      const run = await runCli(['run-agent', '--task', toyTask, '--variant', 'llm_v0', '--model', 'fake-model', '--skip-baseline', '--no-log-llm-messages', '--out', path.join(scratch.path, 'llm'), '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout) as Printed;
      scratch.runIds.push(printed.record.run_id);
      expect(printed.record).toMatchObject({ variant: 'llm', result: { passed: true, stop_reason: 'SUCCESS' }, metrics: { steps: 2, input_tokens: 2600, output_tokens: 165 } });
      expect(printed.record.baseline_validation).toMatchObject({ attempted: false });
      expect(server.requests).toHaveLength(2);
      expect((server.requests[0]?.body as { model: string }).model).toBe('fake-model');
      expect(existsSync(path.join(printed.run_dir, 'llm_messages.jsonl'))).toBe(false);
    } finally {
      restoreEnvironment();
      await server.close();
    }
  });
});
