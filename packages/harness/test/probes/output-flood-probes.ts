import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LOG_CAP_BYTES } from '@agentbench/sandbox';
import { loadTask, type AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { folderBytes } from '../../../../test-support/folder-bytes.js';
import { formatSuiteSummary, runAgentAttempt, runTask, validateSuite } from '../../src/index.js';
import { createGitRepository } from '../helpers/git-repository.js';
import { containersLeftBy } from '../helpers/docker-context.js';
import { probeSkipReason, sandboxFactory, type ProbeBackend } from './trust-boundary-probes.js';

/** `bytes` of `a` on stdout (or stderr): what a flooding command prints. */
function flood(bytes: number, stream: 'stdout' | 'stderr' = 'stdout'): string {
  return `head -c ${bytes} /dev/zero | tr '\\0' a${stream === 'stderr' ? ' >&2' : ''}`;
}

/**
 * What a row floods: a few times the cap that applies, never hundreds of megabytes. Every check below
 * (the cut logs named, each under 2× its cap, the folder bounded, a few lines printed) holds at any
 * flood past the cap and fails at 4× it if the cap is not applied; a bigger flood only costs CI time
 * (500 MB rows took 3.5 minutes a backend).
 */
const FLOOD_BYTES = 4 * DEFAULT_LOG_CAP_BYTES;
const TASK_CAP_BYTES = 1_000_000;
const TASK_CAP_FLOOD_BYTES = 8 * TASK_CAP_BYTES;
/** Past the task's cap too, so a log cut at the task's cap instead of the caller's names other dropped bytes. */
const CALLER_CAP_BYTES = 100_000;
const CALLER_CAP_FLOOD_BYTES = 2 * TASK_CAP_BYTES;
/** The agent's test command floods once the agent has asked for it (so the baseline and the first test run do not). */
const AGENT_TEST_COMMAND = `if [ -e flood.on ]; then ${flood(FLOOD_BYTES)}; fi; exit 1`;

/**
 * Ways a sandbox can flood its output into the artifacts or the terminal, one row each: what
 * runs it, the task's commands, the caps asked for, and the logs that must say they were cut.
 * Adding a vector is adding a row.
 */
interface FloodVector {
  name: string;
  via: 'run-task' | 'validate-suite' | 'run-agent';
  setup?: string[];
  run: string;
  /** The scripted agent's steps (run-agent). */
  script?: unknown[];
  /** `environment.max_output_bytes` of the task. */
  taskMaxOutputBytes?: number;
  /** The caller's `maxOutputBytes` (`--max-output-bytes`). */
  maxOutputBytes?: number;
  /** Bytes each flooding command prints. */
  floodBytes: number;
  /** The logs (relative to the run directory) that must be cut, each naming the dropped bytes. */
  truncatedLogs: string[];
  /** The whole run folder stays under this. */
  maxFolderBytes: number;
}

const VECTORS: readonly FloodVector[] = [
  { name: 'run-task: the test command prints 4× the default cap', via: 'run-task', run: `${flood(FLOOD_BYTES)}; exit 1`, floodBytes: FLOOD_BYTES, truncatedLogs: ['logs/run.log'], maxFolderBytes: 12_000_000 },
  { name: 'run-task: the test command prints 4× the default cap on stderr', via: 'run-task', run: `${flood(FLOOD_BYTES, 'stderr')}; exit 1`, floodBytes: FLOOD_BYTES, truncatedLogs: ['logs/run.log'], maxFolderBytes: 12_000_000 },
  { name: 'run-task: a setup command prints 4× the default cap', via: 'run-task', setup: [flood(FLOOD_BYTES)], run: 'exit 1', floodBytes: FLOOD_BYTES, truncatedLogs: ['logs/setup_1.log'], maxFolderBytes: 12_000_000 },
  { name: 'run-task: the task keeps 1 MB a stream', via: 'run-task', run: `${flood(TASK_CAP_FLOOD_BYTES)}; exit 1`, taskMaxOutputBytes: TASK_CAP_BYTES, floodBytes: TASK_CAP_FLOOD_BYTES, truncatedLogs: ['logs/run.log'], maxFolderBytes: 1_500_000 },
  { name: 'run-task: --max-output-bytes 100000 wins over the task', via: 'run-task', run: `${flood(CALLER_CAP_FLOOD_BYTES)}; exit 1`, taskMaxOutputBytes: TASK_CAP_BYTES, maxOutputBytes: CALLER_CAP_BYTES, floodBytes: CALLER_CAP_FLOOD_BYTES, truncatedLogs: ['logs/run.log'], maxFolderBytes: 500_000 },
  { name: 'validate-suite: the baseline run and its rerun print 4× the default cap', via: 'validate-suite', run: `${flood(FLOOD_BYTES)}; exit 1`, floodBytes: FLOOD_BYTES, truncatedLogs: ['logs/flood/run.log', 'logs/flood/run_rerun.log'], maxFolderBytes: 25_000_000 },
  {
    name: 'run-agent: the agent’s run step and the final test print 4× the default cap',
    via: 'run-agent',
    run: AGENT_TEST_COMMAND,
    script: [
      { tool: 'run', args: { command: 'touch flood.on' } },
      { tool: 'run', args: { command: AGENT_TEST_COMMAND } },
    ],
    floodBytes: FLOOD_BYTES,
    truncatedLogs: ['logs/tool_step_0002_run.log', 'verdict/logs/final_test.log'],
    maxFolderBytes: 25_000_000,
  },
];

/** What one vector left: the run folder, the record, and what the CLI prints about it. */
interface FloodOutcome {
  runDir: string;
  record: AttemptRecord;
  /** The text `ab` prints for the attempt: its summary line (run-task, run-agent) or the summary table (validate-suite). */
  printed: string;
}

async function writeTask(scratch: TemporaryDirectory, vector: FloodVector, repository: { url: string; sha: string }, index: number): Promise<string> {
  const environment = ['  docker_image: agentbench/py-runner:0.1.0', '  workdir: /workspace', '  timeout_sec: 600'];
  if (vector.taskMaxOutputBytes !== undefined) environment.push(`  max_output_bytes: ${vector.taskMaxOutputBytes}`);
  const lines = [
    'task_spec_version: "1.0"',
    'id: flood',
    'suite: flood',
    'repo:',
    `  url: ${repository.url}`,
    `  commit: ${repository.sha}`,
    'environment:',
    ...environment,
    'setup:',
    `  commands: ${JSON.stringify(vector.setup ?? [])}`,
    'run:',
    `  command: ${JSON.stringify(vector.run)}`,
  ];
  if (vector.script !== undefined) lines.push('agent:', '  entrypoint: scripted', `  script: ${JSON.stringify(vector.script)}`);
  return scratch.write(`tasks-${index}/flood/flood/task.yaml`, `${lines.join('\n')}\n`);
}

async function runVector(backend: ProbeBackend, scratch: TemporaryDirectory, vector: FloodVector, repository: { url: string; sha: string }, index: number): Promise<FloodOutcome> {
  const taskFile = await writeTask(scratch, vector, repository, index);
  const outDir = path.join(scratch.path, `out-${index}`);
  const createSandbox = sandboxFactory(backend);
  const caps = vector.maxOutputBytes === undefined ? {} : { maxOutputBytes: vector.maxOutputBytes };
  if (vector.via === 'run-task') {
    const { runDir, outcome } = await runTask(await loadTask(taskFile), { outDir, mirrors: [], createSandbox, ...caps });
    return { runDir, record: outcome.record, printed: outcome.message };
  }
  if (vector.via === 'validate-suite') {
    const result = await validateSuite({ suite: 'flood', tasksDir: path.dirname(path.dirname(path.dirname(taskFile))), outDir, mirrors: [], createSandbox, flakyRerun: 'always', ...caps });
    const record = result.tasks[0]?.record as AttemptRecord;
    return { runDir: result.runDir, record, printed: formatSuiteSummary(result, { suite: 'flood' }) };
  }
  const result = await runAgentAttempt({ task: taskFile, variant: 'scripted', mirrors: [], outDir, createSandbox, ...caps });
  return { runDir: result.runDir, record: result.record, printed: result.message };
}

async function filesNamed(folder: string, pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && pattern.test(entry.name)) found.push(entry.name);
  }
  return found;
}

/** Every row: artifacts and what is printed stay bounded, the record says what was cut, each cut log names the dropped bytes. */
export function describeOutputFloodProbes(backend: ProbeBackend, fileName: string): void {
  const skip = probeSkipReason(backend, fileName);
  describe.skipIf(skip !== undefined)(`output a ${backend} sandbox prints is stored and printed bounded`, () => {
    let scratch: TemporaryDirectory;
    let repository: { url: string; sha: string };
    const runIds: string[] = [];

    beforeAll(async () => {
      scratch = await createTemporaryDirectory();
      const url = path.join(scratch.path, 'repository');
      const [sha] = createGitRepository(url, [{ message: 'a small project', files: { 'README.md': 'flood probe\n' } }]);
      repository = { url, sha: sha as string };
    });

    afterAll(async () => {
      const left = (await Promise.all(runIds.map((runId) => containersLeftBy(runId)))).flat();
      await scratch?.remove();
      expect(left, 'containers left behind').toEqual([]);
    });

    it.each(VECTORS.map((vector, index) => [vector.name, vector, index] as const))('%s', async (_name, vector, index) => {
      const { runDir, record, printed } = await runVector(backend, scratch, vector, repository, index);
      runIds.push(record.run_id);

      // The record says what was cut; each cut log keeps head and tail with the dropped bytes named.
      expect([...(record.truncated_logs ?? [])].sort(), `${record.result.failure_reason}: ${printed.slice(0, 500)}`).toEqual([...vector.truncatedLogs].sort());
      const cap = vector.maxOutputBytes ?? vector.taskMaxOutputBytes ?? DEFAULT_LOG_CAP_BYTES;
      const marker = `[… ${(vector.floodBytes - cap).toLocaleString('en-US')} of ${vector.floodBytes.toLocaleString('en-US')} bytes dropped by agentbench …]`;
      for (const log of vector.truncatedLogs) {
        const text = await readFile(path.join(runDir, log), 'utf8');
        // Not toContain: a failure would print megabytes.
        expect(text.includes(marker), `${log} names the dropped bytes: ${marker}`).toBe(true);
        expect(text.length, `${log} keeps at most the cap of each stream`).toBeLessThan(2 * cap + 1000);
      }

      // The whole run folder stays bounded: each output is kept once, capped.
      expect(await folderBytes(runDir)).toBeLessThan(vector.maxFolderBytes);
      expect(await filesNamed(runDir, /^tool_step_.*_(stdout|stderr)\.txt$/)).toEqual([]);

      // What `ab` prints about it: a few lines, no raw control characters.
      expect(printed.length, printed.slice(0, 300)).toBeLessThan(4000);
      expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    }, 900_000);
  });
}
