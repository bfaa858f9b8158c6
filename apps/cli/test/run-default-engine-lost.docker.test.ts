import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_IMAGE } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { managedOnBoth, readRecords, setUpTwoEngines, twoEnginesSkipReason, type TwoEngines } from './two-engines.js';

// `ab run` without an engines list uses the default engine (DOCKER_HOST). Here that is a second dockerd
// of the test's own, so it can be stopped while an agent's command runs without touching the host's.
const skip = twoEnginesSkipReason('run-default-engine-lost.docker.test.ts');
const MARKER = '.agent-started';

let engines: TwoEngines | undefined;
let previousDockerHost: string | undefined;

/** The toy task with an agent whose first command marks the workspace and then runs long enough to be cut off. */
function writeSlowAgentTask(setup: TwoEngines): void {
  const taskFile = path.join(setup.tasksDir, 'engines', setup.taskIds[0] as string, 'task.yaml');
  const task = readFileSync(taskFile, 'utf8');
  const agent = ['agent:', '  entrypoint: scripted', '  max_steps: 3', '  script:', '    - tool: run', `      args: { command: "touch ${MARKER} && sleep 60", timeout_sec: 120 }`, ''].join('\n');
  writeFileSync(taskFile, task.replace(/^agent:[\s\S]*$/m, agent));
}

/** Whether the agent's marker is somewhere under `dir` (names only: nothing written there is opened or followed). */
function hasMarker(dir: string): boolean {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true }).some((entry) => entry.name === MARKER);
  } catch {
    // The run folder does not exist yet, or changed while it was read.
    return false;
  }
}

describe.skipIf(skip !== undefined)('ab run on the default engine (no engines list) when that engine stops answering', () => {
  beforeAll(async () => {
    engines = await setUpTwoEngines({ taskCount: 1, capacity: 1, scratchPrefix: 'ab-default-engine-' });
    writeSlowAgentTask(engines);
    const socket = `unix://${path.join(engines.engine.dir, 'docker.sock')}`;
    execFileSync('sh', ['-c', `docker save ${RUNNER_IMAGE} | docker -H ${socket} load -q`], { stdio: 'pipe' });
    // Before anything in this process asks for the default engine (it is made once per process).
    previousDockerHost = process.env['DOCKER_HOST'];
    process.env['DOCKER_HOST'] = socket;
  }, 180_000);

  afterAll(() => {
    if (previousDockerHost === undefined) delete process.env['DOCKER_HOST'];
    else process.env['DOCKER_HOST'] = previousDockerHost;
    engines?.destroy();
  });

  it("records the try cut off in the agent's command as infra, lost to engine 'local', not as the agent's failure", async () => {
    const setup = engines as TwoEngines;
    const out = path.join(setup.scratch, 'run');
    let isRunDone = false;
    // Stop the engine once the agent's command runs (its marker is in the mounted workspace).
    const stopper = (async () => {
      for (let waited = 0; waited < 600_000 && !isRunDone; waited += 250) {
        if (hasMarker(out)) {
          await setup.engine.stop();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const run = await runCli(['run', '--suite', 'engines', '--tasks', setup.tasksDir, '--agent', 'scripted', '-j', '1', '--retries', '1', '--out', out, '--json']);
    isRunDone = true;
    await stopper;
    expect(run.stderr).not.toMatch(/^\s+at /m);

    const tries = readRecords(out);
    expect(tries.map((record) => record.try)).toEqual([1, 2]);
    const [cutOff, retried] = tries;
    expect(cutOff).toMatchObject({ failure_class: 'infra', engine_unreachable: expect.stringMatching(/^engine 'local' stopped answering/) });
    // The engine stays down: the retry is infra too, and the attempt is errored (left out of the pass rate), never a pass or the agent's failure.
    expect(retried).toMatchObject({ failure_class: 'infra', errored: true, result: { passed: false } });

    // Back up, `ab cleanup` (on the default engine) removes what the stopped engine kept; nothing of this process is left on either engine.
    await setup.engine.start();
    const cleanup = await runCli(['cleanup']);
    expect(cleanup.exitCode).toBe(0);
    expect(await managedOnBoth(setup.enginesFile, { creatorPid: process.pid })).toEqual([]);
  }, 600_000);
});

