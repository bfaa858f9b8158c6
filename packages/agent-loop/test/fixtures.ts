import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalSandbox } from '@agentbench/sandbox';
import { AgentEventSchema, loadTask, type AgentEvent, type LoadedTask } from '@agentbench/schemas';
import { createToolSet, type ToolSet } from '@agentbench/tools';
import * as v from 'valibot';

/**
 * A tiny project whose "test" is a shell script: `status.txt` must say `fixed`. Fast, and needs
 * nothing but a shell, so the loop can be tested against a real LocalSandbox and real tools.
 */
export const TEST_COMMAND = 'sh check.sh';

export const FIXING_PATCH = ['--- a/status.txt', '+++ b/status.txt', '@@ -1 +1 @@', '-broken', '+fixed', ''].join('\n');

/** A patch that applies but changes nothing the test looks at. */
export function harmlessPatch(line: number): string {
  return ['--- a/notes.txt', '+++ b/notes.txt', `@@ -${line},0 +${line + 1},1 @@`, `+note ${line}`, ''].join('\n');
}

export interface LoopFixture {
  root: string;
  repoDir: string;
  artifactsDir: string;
  task: LoadedTask;
  sandbox: LocalSandbox;
  tools: ToolSet;
  cleanup(): Promise<void>;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, stdio: 'ignore' });
}

export async function createLoopFixture(options: { status?: string; setup?: string[]; script?: unknown[] } = {}): Promise<LoopFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'agent-loop-test-'));
  const repoDir = path.join(root, 'repo');
  const artifactsDir = path.join(root, 'artifacts');
  await mkdir(repoDir, { recursive: true });
  await mkdir(artifactsDir, { recursive: true });
  await writeFile(path.join(repoDir, 'status.txt'), `${options.status ?? 'broken'}\n`);
  await writeFile(path.join(repoDir, 'notes.txt'), 'notes\n');
  await writeFile(
    path.join(repoDir, 'check.sh'),
    ['status=$(cat status.txt)', 'if [ "$status" = fixed ]; then echo "1 passed"; exit 0; fi', 'echo "FAILED check: status is $status, expected fixed"', 'exit 1', ''].join('\n'),
  );
  git(repoDir, 'init', '-q');
  git(repoDir, 'add', '.');
  git(repoDir, 'commit', '-q', '-m', 'initial');
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoDir }).toString().trim();
  const taskFile = path.join(root, 'task.yaml');
  // JSON is YAML: the task is written as data, so no value needs quoting by hand.
  const taskData = {
    task_spec_version: '1.0',
    id: 'shell_fixture',
    suite: 'unit',
    repo: { url: './repo', commit: sha },
    environment: { docker_image: 'none', workdir: '/workspace', timeout_sec: 30 },
    setup: { commands: options.setup ?? [] },
    run: { command: TEST_COMMAND },
    ...(options.script === undefined ? {} : { agent: { entrypoint: 'scripted', script: options.script } }),
  };
  await writeFile(taskFile, `${JSON.stringify(taskData, null, 2)}\n`);
  const task = await loadTask(taskFile);
  const sandbox = await LocalSandbox.create({ mountWorkspace: repoDir }, { isWarningSilenced: true });
  const tools = createToolSet({ sandbox, artifactsDir });
  return {
    root,
    repoDir,
    artifactsDir,
    task,
    sandbox,
    tools,
    cleanup: async () => {
      await sandbox.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Reads a JSONL file and checks each line against the events schema. */
export async function readEvents(file: string): Promise<AgentEvent[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => v.parse(AgentEventSchema, JSON.parse(line)));
}
