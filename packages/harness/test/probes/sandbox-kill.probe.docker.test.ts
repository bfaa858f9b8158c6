import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentAttempt, sandboxFactoryFor } from '../../src/index.js';
import { useToyTaskScratch } from '../helpers/use-toy-task-scratch.js';
import { probeSkipReason } from './trust-boundary-probes.js';

const run = (command: string): unknown => ({ tool: 'run', args: { command, timeout_sec: 30 } });

/**
 * An agent that kills its own sandbox (PID 1, or every process it can reach, the executor
 * included) must not pass the failure off as infrastructure: whatever the reason, the class is
 * `agent`, so `ab run` neither retries it nor leaves it out of the pass rate.
 */
const skip = probeSkipReason('docker', 'sandbox-kill.probe.docker.test.ts');
describe.skipIf(skip !== undefined)('an agent that kills its sandbox fails as the agent (docker)', () => {
  const context = useToyTaskScratch('sandbox-kill-');

  it.each([
    ['kills PID 1', 'kill -9 1'],
    ['kills every process it can reach, the executor included', 'kill -9 -1'],
  ])('%s', async (name, command) => {
    const scriptFile = path.join(context.scratch, `${name.replaceAll(' ', '-')}.json`);
    await writeFile(scriptFile, JSON.stringify([run(command), run('PYTHONPATH=/workspace/site-packages python3 -m pytest -q')]));
    const { record } = await runAgentAttempt({
      task: context.toy,
      variant: 'scripted',
      scriptFile,
      skipBaseline: true,
      mirrors: [],
      outDir: path.join(context.scratch, name.replaceAll(' ', '-')),
      createSandbox: sandboxFactoryFor('docker'),
    });
    context.runIds.push(record.run_id);
    expect(record.result.passed).toBe(false);
    expect(record.failure_class).toBe('agent');
    expect(['agent_run', 'final_test']).toContain(record.failure_stage);
  }, 180_000);
});
