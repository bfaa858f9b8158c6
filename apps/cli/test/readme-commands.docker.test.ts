import { spawn } from 'node:child_process';
import { copyFile, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Dockerode from 'dockerode';
import { lastUserText, startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { checkGvisorRegistered } from '@agentbench/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../test-support/closed-port.js';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { abBin, abBinSkipReason, runAb, type AbExit } from './run-ab.js';
import { copyToyTask, scriptedPatchOf, toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

// Issue 27: the README's "What you can do with it" block, line by line, must run and exit as it says;
// and its offline LLM example too. A line changed in the README fails here until this table says how
// to run it. Kept cheap: two small copies of the toy suite (one broken task for the validate lines,
// one task an agent fixes for the rest), one run folder reused by report, compare and replay.

const skipReason = dockerSkipReason('readme-commands.docker.test.ts') ?? abBinSkipReason('readme-commands.docker.test.ts');
const gvisor = skipReason === undefined ? await checkGvisorRegistered(new Dockerode()) : undefined;
if (gvisor?.reason !== undefined) console.warn(`[skipped] readme-commands.docker.test.ts (the --runtime runsc line): ${gvisor.reason}`);

/** The lines of the first ```sh block after `marker` in the README. */
async function readmeBlock(marker: string): Promise<string[]> {
  const readme = await readFile(path.join(repositoryRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(marker);
  if (start === -1) throw new Error(`README.md: no "${marker}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (block === null) throw new Error(`README.md: no sh block after "${marker}"`);
  return (block[1] ?? '').trim().split('\n');
}

/** `pnpm ab run --suite x   # comment` -> `run --suite x`: what `pnpm ab` hands to `ab`. */
function abCommandOf(line: string): string {
  const command = line.replace(/\s+#.*$/, '').trim();
  if (!command.startsWith('pnpm ab ')) throw new Error(`README line is not a pnpm ab command: ${line}`);
  return command.slice('pnpm ab '.length);
}

/** Where a line runs: the folder with the broken-on-purpose suite, or the one an agent can fix. */
type Place = 'broken-suite' | 'fixable-suite';

/** Every line of the block, in the order they run (report, compare and replay need a run first), and its exit. */
const BLOCK: readonly { command: string; place: Place; exit: number; isGvisor?: boolean }[] = [
  { command: 'validate-suite custom-dev', place: 'broken-suite', exit: 1 },
  { command: 'validate-suite custom-dev --oracle-runs 3', place: 'broken-suite', exit: 1 },
  { command: 'validate-suite custom-dev --runtime runsc', place: 'broken-suite', exit: 1, isGvisor: true },
  { command: 'run-task tasks/custom-dev/toy_fail_pytest/task.yaml', place: 'fixable-suite', exit: 1 },
  { command: 'run-agent --task TASK.yaml --variant llm', place: 'fixable-suite', exit: 0 },
  { command: 'scenario run fixtures/scenarios/greeting.scenario.yaml --seed 7', place: 'fixable-suite', exit: 0 },
  { command: 'scenario matrix FILE.matrix.yaml --parallel 2', place: 'fixable-suite', exit: 0 },
  { command: 'run --suite custom-dev --models models.txt --runs 3 -j auto', place: 'fixable-suite', exit: 0 },
  { command: 'bench-models --task TASK.yaml --models models.txt --runs 1', place: 'fixable-suite', exit: 0 },
  { command: 'report artifacts/agent_runs/TASK/RUN_ID --format md', place: 'fixable-suite', exit: 0 },
  { command: 'report RUN_A RUN_B --out ab.html', place: 'fixable-suite', exit: 0 },
  { command: 'compare RUN_A RUN_B --format md --fail-on-regression', place: 'fixable-suite', exit: 0 },
  { command: 'replay ARTIFACT_DIR/agent_runs/TASK/RUN_ID', place: 'fixable-suite', exit: 0 },
  { command: 'replay artifacts/scenarios/TIME__NAME__ID', place: 'fixable-suite', exit: 0 },
  { command: 'proxy --record cassette.jsonl --upstream URL', place: 'fixable-suite', exit: 0 },
  { command: 'import-swebench records.jsonl --out tasks/my-suite', place: 'fixable-suite', exit: 0 },
];

/** The one entry of a folder the commands made (a run, an attempt): its path. */
async function onlyEntry(folder: string): Promise<string> {
  const entries = (await readdir(folder)).filter((name) => !name.startsWith('.'));
  expect(entries, folder).toHaveLength(1);
  return path.join(folder, entries[0] as string);
}

/** Runs until it prints `pattern`, then gets SIGINT (Ctrl-C, as the README says) and settles with its exit. */
async function runUntilInterrupted(args: readonly string[], options: { cwd: string; env: Record<string, string> }, pattern: RegExp): Promise<AbExit> {
  const child = spawn(process.execPath, [abBin, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<AbExit>((resolve) => child.once('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr })));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let isInterrupted = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    // One Ctrl-C: a second one, after its handler is gone, would kill it by the signal.
    if (!isInterrupted && pattern.test(stdout)) {
      isInterrupted = true;
      child.kill('SIGINT');
    }
  });
  return exit;
}

describe.skipIf(skipReason !== undefined)("the README's commands", { timeout: 1_800_000 }, () => {
  const scratch = useDockerScratch();
  const folders = {} as Record<Place, string>;
  let server: FakeLlmServer;
  let environment: Record<string, string>;
  let offlineExample: string;

  beforeAll(async () => {
    folders['broken-suite'] = path.join(scratch.path, 'broken-suite');
    folders['fixable-suite'] = path.join(scratch.path, 'fixable-suite');
    offlineExample = path.join(scratch.path, 'offline-example');
    // The offline example's attempt in a folder of its own: the block's report and replay lines find one attempt.
    await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(offlineExample, 'tasks/custom-dev/toy_fail_pytest'), timeoutSec: 300 });
    // A broken-on-purpose task (its setup fails): every validate line exits 1 as custom-dev's does, at a setup's cost.
    await copyToyTask({ taskId: 'toy_setup_fail', folder: path.join(folders['broken-suite'], 'tasks/custom-dev/toy_setup_fail') });
    await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(folders['fixable-suite'], 'tasks/custom-dev/toy_fail_pytest'), timeoutSec: 300 });
    // The README's relative paths (fixtures/scenarios/...) hold in both folders.
    for (const folder of Object.values(folders)) await symlink(path.join(repositoryRoot, 'fixtures'), path.join(folder, 'fixtures'), 'dir');
    const fixable = folders['fixable-suite'];
    await writeFile(path.join(fixable, 'models.txt'), '# one model, served by the fake LLM server\nfake/demo-model\n');
    await writeFile(path.join(fixable, 'FILE.matrix.yaml'), 'name: One greeting\nbase_scenario: fixtures/scenarios/greeting.scenario.yaml\nruns_per_combination: 1\nmatrix:\n  - parameter: run[0].input\n    values: [Hello there]\n');
    await copyFile(path.join(repositoryRoot, 'packages/swebench/test/fixtures/swe-bench-lite-sample.jsonl'), path.join(fixable, 'records.jsonl'));
    // The agent's one step fixes the toy task (its tests then pass and it stops); the scenario agent is greeted back.
    const patch = await scriptedPatchOf(toyTaskFile('toy_fail_pytest'));
    server = await startFakeLlmServer({
      // The greeting scenario's input is "Hello there"; everything else is the toy task's agent.
      script: (request) => (lastUserText(request) === 'Hello there' ? 'Hello there' : { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }] }),
    });
    environment = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: '', OPENROUTER_API_KEY: '', AGENTBENCH_AGENT_API_KEY: '', AGENTBENCH_AGENT_BASE_URL: '' };
  });

  afterAll(async () => {
    await server?.close();
    // Every run the commands made, for useDockerScratch's check that none left a container.
    const records = await readdir(scratch.path, { recursive: true }).then((names) => names.filter((name) => name.endsWith('attempts.jsonl')));
    for (const name of records) {
      for (const line of (await readFile(path.join(scratch.path, name), 'utf8')).split('\n')) {
        if (line.trim() !== '') scratch.runIds.push((JSON.parse(line) as { run_id: string }).run_id);
      }
    }
  });

  it('lists exactly the lines of the README block', async () => {
    expect((await readmeBlock('## What you can do with it')).map(abCommandOf).sort()).toEqual(BLOCK.map((line) => line.command).sort());
  });

  it('runs the offline LLM example: the fake server from its script file, and the LLM agent fixing the toy task through it', async () => {
    const [serverLine, agentLine] = await readmeBlock('<!-- offline-llm-example -->');
    // A port free a moment ago, for the README's fixed 8765 (another process may hold it).
    const port = await closedPort();
    const serverArgs = (serverLine ?? '').replace(/ &$/, '').replace('--port 8765', `--port ${port}`).split(' ');
    expect(serverArgs.slice(0, 2)).toEqual(['pnpm', 'fake-llm-server']);
    // `pnpm fake-llm-server` is the root script `node packages/fake-llm-server/dist/cli.js` (offline-llm-route.test.ts runs it through pnpm).
    const fake = spawn(process.execPath, [path.join(repositoryRoot, 'packages/fake-llm-server/dist/cli.js'), ...serverArgs.slice(2)], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    const closed = new Promise<void>((resolve) => fake.once('close', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        fake.stdout.setEncoding('utf8').on('data', (chunk: string) => (chunk.includes('listening on') ? resolve() : undefined));
        fake.once('close', () => reject(new Error('fake-llm-server ended before listening')));
      });
      const [assignment, ...command] = (agentLine ?? '').split(' ');
      expect(assignment).toBe('OPENAI_BASE_URL=http://127.0.0.1:8765/v1');
      const args = abCommandOf(command.join(' ')).split(' ');
      const result = await runAb(args, { cwd: offlineExample, env: { ...environment, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toContain('PASSED (llm)');
    } finally {
      fake.kill('SIGTERM');
      await closed;
    }
  });

  it('runs every line of the block, each exiting as the README says', async () => {
    const fixable = folders['fixable-suite'];
    const placeholders = new Map<string, () => Promise<string>>([
      ['TASK.yaml', async () => 'tasks/custom-dev/toy_fail_pytest/task.yaml'],
      ['ARTIFACT_DIR/agent_runs/TASK/RUN_ID', () => onlyEntry(path.join(fixable, 'artifacts/agent_runs/toy_fail_pytest'))],
      ['artifacts/agent_runs/TASK/RUN_ID', () => onlyEntry(path.join(fixable, 'artifacts/agent_runs/toy_fail_pytest'))],
      ['artifacts/scenarios/TIME__NAME__ID', () => onlyEntry(path.join(fixable, 'artifacts/scenarios'))],
      // One run folder, `ab run`'s, is both A and B: compare then finds no regression. It is the one
      // folder `ab run` added to artifacts/runs: other lines (bench-models) write their own beside it.
      ['RUN_A', async () => abRunFolder],
      ['RUN_B', async () => abRunFolder],
      ['URL', async () => server.url],
    ]);
    let abRunFolder = '(ab run has not run yet)';
    const runFolders = async (): Promise<string[]> => (await readdir(path.join(fixable, 'artifacts/runs')).catch(() => [])).filter((name) => !name.startsWith('.'));
    const timings: string[] = [];
    for (const line of BLOCK) {
      if (line.isGvisor === true && gvisor?.isRegistered !== true) continue;
      const args: string[] = [];
      for (const word of line.command.split(' ')) args.push((await placeholders.get(word)?.()) ?? word);
      const runFoldersBefore = await runFolders();
      const started = Date.now();
      const result = line.command.startsWith('proxy ')
        ? await runUntilInterrupted(args, { cwd: folders[line.place], env: environment }, /OPENAI_BASE_URL=http/)
        : await runAb(args, { cwd: folders[line.place], env: environment });
      timings.push(`${((Date.now() - started) / 1000).toFixed(0)} s  ab ${line.command}`);
      expect(result.exitCode, `ab ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(line.exit);
      if (line.command.startsWith('run --suite ')) {
        const made = (await runFolders()).filter((name) => !runFoldersBefore.includes(name));
        expect(made, 'the folders ab run made in artifacts/runs').toHaveLength(1);
        abRunFolder = path.join(fixable, 'artifacts/runs', made[0] as string);
      }
    }
    console.info(`[readme-commands] ${timings.join('\n[readme-commands] ')}`);
  });
});
