import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { ExecutorClient } from './executor-client.js';
import { EXECUTOR_SCRIPT } from './executor-script.js';

/**
 * The command line stays short (`ps` shows `python3 -u -c <this> agentbench-executor
 * /workspace`): the bootstrap reads the real script as the first stdin line.
 */
export const EXECUTOR_BOOTSTRAP =
  "import sys,json;exec(compile(json.loads(sys.stdin.buffer.readline()),'agentbench-executor','exec'))";

/**
 * argv that starts the executor for a workspace. `-I` (isolated) keeps the workspace off
 * `sys.path` and ignores PYTHON* variables, so a `json.py` written by an agent cannot
 * replace the executor's own modules; `-S` skips site-packages (faster start, stdlib only).
 */
export function executorArgv(workdir: string, python = 'python3'): string[] {
  return [python, '-I', '-S', '-u', '-c', EXECUTOR_BOOTSTRAP, 'agentbench-executor', workdir];
}

/** First line to send on the executor's stdin: the script itself. */
export function executorScriptLine(): string {
  return `${JSON.stringify(EXECUTOR_SCRIPT)}\n`;
}

/**
 * Connects a spawned executor (`spawn(...executorArgv(...))` with piped stdio) to a
 * client and sends it the script. Used for tests on the host and by backends that run
 * the executor as a local child (e.g. inside bubblewrap).
 */
export function connectExecutorProcess(child: ChildProcessWithoutNullStreams): ExecutorClient {
  const client = new ExecutorClient({
    write: (data) => {
      child.stdin.write(data);
    },
    close: () => {
      child.stdin.end();
    },
  });
  child.stdout.on('data', (chunk: Buffer) => client.receive(chunk));
  child.stderr.on('data', (chunk: Buffer) => client.receiveDiagnostics(chunk));
  child.stdin.on('error', () => undefined);
  child.once('error', (error) => client.handleClose(error));
  child.once('close', () => client.handleClose());
  child.stdin.write(executorScriptLine());
  return client;
}
