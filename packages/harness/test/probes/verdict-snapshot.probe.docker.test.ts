import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadTask } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../../test-support/fixture-repositories.js';
import { runAgentAttempt } from '../../src/index.js';
import { dockerSkipReason, RUNNER_IMAGE } from '../helpers/docker-context.js';
import { useToyTaskScratch } from '../helpers/use-toy-task-scratch.js';

const skipReason = dockerSkipReason('verdict-snapshot.probe.docker.test.ts', RUNNER_IMAGE);

/**
 * The toy task, set up once: its setup installs the package into the workspace and leaves a file
 * in the image's file system (outside the workspace). The test command prints what it sees of
 * both before running the tests, so the verdict's log shows what its sandbox started from.
 */
const TASK = `task_spec_version: "1.0"
id: verdict_snapshot_probe
suite: probes
repo:
  url: ${path.join(repositoryRoot, 'fixtures/repos/toy_repo.git')}
  commit: ff52777d9582e6aaeaf62139588920dc4c36e414
environment:
  docker_image: ${RUNNER_IMAGE}
  workdir: /workspace
  timeout_sec: 60
setup:
  commands:
    - pip install --no-index --no-build-isolation --upgrade . --target=/workspace/site-packages
    - mkdir -p /var/tmp/setup-out && echo setup > /var/tmp/setup-out/state
run:
  command: echo "state=$(cat /var/tmp/setup-out/state) mark=$(cat /var/tmp/agent-mark 2>/dev/null || echo none)"; PYTHONPATH=/workspace/site-packages python3 -m pytest -q
agent:
  entrypoint: scripted
  max_steps: 10
  script:
    # Never touches the repository: every write is to what setup left outside it. A sitecustomize
    # that exits 0 makes the tests pass wherever it is seen.
    - tool: run
      args:
        command: >-
          echo agent > /var/tmp/setup-out/state; echo agent > /var/tmp/agent-mark;
          echo 'import os; os._exit(0)' > /workspace/site-packages/sitecustomize.py;
          for site in /usr/local/lib/python3*/site-packages /usr/lib/python3/dist-packages; do cp /workspace/site-packages/sitecustomize.py "$site/" 2>/dev/null; done; true
    - tool: run
      args: { command: "PYTHONPATH=/workspace/site-packages python3 -m pytest -q", timeout_sec: 60 }
`;

describe.skipIf(skipReason !== undefined)('the verdict sandbox starts from the post-setup snapshot, out of the agent’s reach (real Docker)', () => {
  const context = useToyTaskScratch('verdict-snapshot-probe-');

  it('an agent that rewrites setup’s outputs outside the repository changes its own sandbox only; the snapshot image is removed', async () => {
    const taskFile = path.join(context.scratch, 'task.yaml');
    await writeFile(taskFile, TASK);
    const { runDir, record } = await runAgentAttempt({ task: await loadTask(taskFile), skipBaseline: true, outDir: path.join(context.scratch, 'out') });
    context.runIds.push(record.run_id);

    // The agent's writes took effect where it ran: its own test run passed (the sitecustomize's exit 0).
    const events = (await readFile(path.join(runDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { event_type: string; payload: Record<string, unknown> });
    expect(events.filter((event) => event.event_type === 'tests_finished').at(-1)?.payload['exit_code']).toBe(0);

    // The verdict's sandbox saw setup's state and none of the agent's: the tests ran, and failed.
    expect(record.verdict_setup).toBe('snapshot');
    expect(record.result).toMatchObject({ passed: false, failure_reason: 'TESTS_FAILED' });
    const finalLog = await readFile(path.join(runDir, record.artifact_paths['final_test_log'] as string), 'utf8');
    expect(finalLog).toContain('state=setup mark=none');
    expect(finalLog).toMatch(/2 failed/);
    // Setup ran once: the verdict has no setup logs of its own.
    expect((await readdir(path.join(runDir, 'verdict', 'logs'))).filter((name) => name.startsWith('verdict_setup'))).toEqual([]);

    const images = execFileSync('docker', ['images', '--quiet', '--filter', `label=dev.agentbench.run-id=${record.run_id}`], { encoding: 'utf8' }).trim();
    expect(images, 'snapshot images left behind').toBe('');
  });
});
