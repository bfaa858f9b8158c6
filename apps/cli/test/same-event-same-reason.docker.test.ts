import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { useScratchRepository } from './scratch-repository.js';

const skipReason = dockerSkipReason('same-event-same-reason.docker.test.ts');

/** Unique to this file, so its leftover check never touches another test's containers. */
const TASK_ID = 'cli_same_event';


interface RecordSeen {
  result: { passed: boolean; failure_reason: string | null; stop_reason: string | null };
}

/** The one record a run folder under `out` holds (run-task: `<out>/<run>/`, run-agent: `<out>/agent_runs/<task>/<run>/`). */
async function onlyRecord(out: string): Promise<RecordSeen> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'workspace' && entry.name !== 'baseline' && entry.name !== 'verdict') await walk(path.join(folder, entry.name));
      else if (entry.name === 'attempts.jsonl') found.push(path.join(folder, entry.name));
    }
  };
  await walk(out);
  expect(found).toHaveLength(1);
  const lines = (await readFile(found[0] as string, 'utf8')).trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as RecordSeen;
}

/**
 * One attempt pipeline: the same event gets the same FailureReason whichever command ran it.
 * These are the two drifts the two attempt copies had (an out-of-memory setup command was
 * SANDBOX_ERROR in one and SETUP_TIMEOUT in the other; a final test past its time was TIMEOUT in
 * one and SANDBOX_ERROR in the other), each through `ab run-task` and `ab run-agent`.
 */
describe.skipIf(skipReason !== undefined)('the same event, the same failure reason, through ab run-task and ab run-agent (real Docker)', () => {
  const fixture = useScratchRepository(TASK_ID);

  function writeTask(name: string, fields: { setup?: string; run: string; timeoutSec: number; script?: unknown[] }): Promise<string> {
    return fixture.writeTask(path.join('tasks', name), { suite: 'same-event', ...fields, script: fields.script ?? [{ tool: 'list_files', args: {} }] });
  }

  async function run(args: string[]): Promise<RecordSeen & { printed: string }> {
    const out = path.join(fixture.scratch.path, `out-${args[0]}-${Math.random().toString(36).slice(2)}`);
    const result = await runCli([...args, '--out', out]);
    expect(result.exitCode, result.stderr.slice(0, 2000)).toBe(1);
    return { ...(await onlyRecord(out)), printed: result.stdout };
  }

  it('a setup command killed at the memory limit is SETUP_FAILED in both, the message naming the out-of-memory kill', async () => {
    // tail keeps the current "line" of /dev/zero in memory, and it never ends.
    const task = await writeTask('oom', { setup: 'tail /dev/zero', run: 'exit 1', timeoutSec: 120 });
    const viaRunTask = await run(['run-task', task]);
    const viaRunAgent = await run(['run-agent', '--task', task, '--variant', 'scripted', '--skip-baseline']);
    expect(viaRunTask.result.failure_reason).toBe('SETUP_FAILED');
    expect(viaRunAgent.result.failure_reason).toBe('SETUP_FAILED');
    for (const via of [viaRunTask, viaRunAgent]) expect(via.printed).toContain('setup command 1 (tail /dev/zero) was killed by the out-of-memory killer (the sandbox memory limit)');
  }, 600_000);

  it('a final test past its time limit is TIMEOUT in both', async () => {
    // run-task: the test command itself outlives the limit.
    const slowTask = await writeTask('timeout-run-task', { run: 'sleep 60', timeoutSec: 5 });
    const viaRunTask = await run(['run-task', slowTask]);
    // run-agent: the baseline fails fast, the agent's own test run passes (it left a marker outside
    // the repository), and only the final test in the fresh sandbox, with the agent's diff, is slow.
    const agentTask = await writeTask('timeout-run-agent', {
      run: 'if [ -e slow.on ] && [ ! -e /tmp/agent-was-here ]; then sleep 60; fi; [ -e slow.on ]',
      timeoutSec: 5,
      script: [{ tool: 'run', args: { command: 'touch slow.on /tmp/agent-was-here' } }],
    });
    const viaRunAgent = await run(['run-agent', '--task', agentTask, '--variant', 'scripted']);
    expect(viaRunAgent.result.stop_reason).toBe('SUCCESS');
    expect(viaRunTask.result.failure_reason).toBe('TIMEOUT');
    expect(viaRunAgent.result.failure_reason).toBe('TIMEOUT');
  }, 600_000);
});
