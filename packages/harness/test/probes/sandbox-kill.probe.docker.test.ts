import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers } from '@agentbench/sandbox';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentAttempt, sandboxFactoryFor } from '../../src/index.js';
import { probeSkipReason } from './trust-boundary-probes.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const TOY_TASK = path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml');
const run = (command: string): unknown => ({ tool: 'run', args: { command, timeout_sec: 30 } });

/**
 * An agent that kills its own sandbox (PID 1, or every process it can reach, the executor
 * included) must not pass the failure off as infrastructure: whatever the reason, the class is
 * `agent`, so `ab run` neither retries it nor leaves it out of the pass rate.
 */
const skip = probeSkipReason('docker', 'sandbox-kill.probe.docker.test.ts');
describe.skipIf(skip !== undefined)('an agent that kills its sandbox fails as the agent (docker)', () => {
  let scratch = '';
  let toy: LoadedTask;
  const runIds: string[] = [];
  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'sandbox-kill-'));
    toy = await loadTask(TOY_TASK);
  });
  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it.each([
    ['kills PID 1', 'kill -9 1'],
    ['kills every process it can reach, the executor included', 'kill -9 -1'],
  ])('%s', async (name, command) => {
    const scriptFile = path.join(scratch, `${name.replaceAll(' ', '-')}.json`);
    await writeFile(scriptFile, JSON.stringify([run(command), run('PYTHONPATH=/workspace/site-packages python3 -m pytest -q')]));
    const { record } = await runAgentAttempt({
      task: toy,
      variant: 'scripted',
      scriptFile,
      skipBaseline: true,
      mirrors: [],
      outDir: path.join(scratch, name.replaceAll(' ', '-')),
      createSandbox: sandboxFactoryFor('docker'),
    });
    runIds.push(record.run_id);
    expect(record.result.passed).toBe(false);
    expect(record.failure_class).toBe('agent');
    expect(['agent_run', 'final_test']).toContain(record.failure_stage);
  }, 180_000);
});
