import path from 'node:path';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { folderBytes } from '../../../test-support/folder-bytes.js';
import { runCli } from './run-cli.js';
import { useScratchRepository } from './scratch-repository.js';

const skipReason = dockerSkipReason('output-flood.docker.test.ts');

/** Unique to this file, so its leftover check never touches another test's containers. */
const TASK_ID = 'cli_output_flood';
/**
 * This file proves what `ab` PRINTS while a sandbox floods; what is stored at the default cap (and at the
 * task's) is proven by packages/harness/test/probes/output-flood.probe.*.test.ts. So the commands here run
 * with a small cap and a flood a few times past it: `ab`'s printing takes the same path at any flood past the
 * cap, and these bytes cost seconds where the 500 MB floods this file had cost minutes. The cap passed also
 * proves each command hands `--max-output-bytes` on (the folder stays under what the default cap would keep).
 */
const CAP_BYTES = 100_000;
/** 20× the cap: were the cap not handed on, one flooded log kept whole would exceed FOLDER_BOUND_BYTES alone. */
const FLOOD_BYTES = 20 * CAP_BYTES;
/** A run folder with its cut logs (each at most 2× the cap), records and small workspace copies stays well under this. */
const FOLDER_BOUND_BYTES = 1_000_000;
const FLOOD = `head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' a`;
/** Floods once the agent asked for it, so the baseline does not (the agent's run step and the final test do). */
const AGENT_TEST_COMMAND = `if [ -e flood.on ]; then ${FLOOD}; fi; exit 1`;
const CAP_ARGS = ['--max-output-bytes', String(CAP_BYTES)];

/**
 * What `ab` prints while a sandbox floods, one row per command that runs attempts:
 * its arguments (the task folder and the output folder filled in) and the exit code it must give.
 */
const COMMANDS: ReadonlyArray<{ name: string; run: string; args: (tasks: string, out: string) => string[]; exitCode: number }> = [
  { name: 'run-task', run: `${FLOOD}; exit 1`, args: (tasks, out) => ['run-task', path.join(tasks, 'flood', TASK_ID, 'task.yaml'), '--out', out, ...CAP_ARGS], exitCode: 1 },
  { name: 'validate-suite', run: `${FLOOD}; exit 1`, args: (tasks, out) => ['validate-suite', 'flood', '--tasks', tasks, '--out', out, '-j', '1', ...CAP_ARGS], exitCode: 0 },
  { name: 'run-agent', run: AGENT_TEST_COMMAND, args: (tasks, out) => ['run-agent', '--task', path.join(tasks, 'flood', TASK_ID, 'task.yaml'), '--variant', 'scripted', '--out', out, ...CAP_ARGS], exitCode: 1 },
];

describe.skipIf(skipReason !== undefined)('ab prints a few lines, not the output, while a sandbox floods its output (real Docker)', () => {
  const fixture = useScratchRepository(TASK_ID);

  it.each(COMMANDS.map((command) => [command.name, command] as const))('ab %s', async (name, command) => {
    const tasks = path.join(fixture.scratch.path, `tasks-${name}`);
    await fixture.writeTask(path.join(`tasks-${name}`, 'flood', TASK_ID), {
      suite: 'flood',
      timeoutSec: 600,
      run: command.run,
      script: [
        { tool: 'run', args: { command: 'touch flood.on' } },
        { tool: 'run', args: { command: AGENT_TEST_COMMAND } },
      ],
    });
    const out = path.join(fixture.scratch.path, `out-${name}`);
    const restoreEnvironment = applyEnvironment({ CI: '1' });
    let run;
    try {
      run = await runCli(command.args(tasks, out));
    } finally {
      restoreEnvironment();
    }
    expect(run.exitCode, run.stderr.slice(0, 2000)).toBe(command.exitCode);
    expect(Buffer.byteLength(run.stdout), run.stdout.slice(0, 2000)).toBeLessThan(2000);
    expect(Buffer.byteLength(run.stderr), run.stderr.slice(0, 2000)).toBeLessThan(2000);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/a{201}/);
    const stored = await folderBytes(out);
    console.log(`ab ${name}: the output folder holds ${stored} bytes`);
    expect(stored).toBeLessThan(FOLDER_BOUND_BYTES);
  }, 900_000);
});
