import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import type { ExecutorClient } from '../../src/core/executor/executor-client.js';
import { connectExecutorProcess, executorArgv } from '../../src/core/executor/executor-launch.js';

/** Why executor tests on the host cannot run (no python3 here), or undefined. */
export const localPythonMissing: string | undefined =
  spawnSync('python3', ['--version']).status === 0 ? undefined : 'python3 is not installed on this machine';

export interface LocalExecutor {
  client: ExecutorClient;
  child: ChildProcessWithoutNullStreams;
  stop(): Promise<void>;
}

/** Runs the real executor script as a host child process over `workdir`: the protocol without an engine. */
export async function startLocalExecutor(workdir: string): Promise<LocalExecutor> {
  const [file, ...args] = executorArgv(workdir);
  const child = spawn(file!, args, { cwd: workdir, stdio: ['pipe', 'pipe', 'pipe'] });
  const client = connectExecutorProcess(child);
  await client.ready;
  return {
    client,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      client.close(new Error('test finished'));
      await exited;
    },
  };
}
