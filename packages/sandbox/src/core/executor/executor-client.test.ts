import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPythonMissing, startLocalExecutor, type LocalExecutor } from '../../../test/helpers/local-executor.js';
import { SandboxError, SymlinkBlockedError } from '../../contract/sandbox-error.js';
import { ExecutorClient } from './executor-client.js';
import type { ExitMessage } from './protocol.js';

interface Collected {
  exit: ExitMessage;
  stdout: string;
  stderr: string;
}

async function run(executor: LocalExecutor, request: Parameters<ExecutorClient['exec']>[0]): Promise<Collected> {
  let stdout = '';
  let stderr = '';
  const running = executor.client.exec(request, {
    onStdout: (chunk) => (stdout += chunk.toString()),
    onStderr: (chunk) => (stderr += chunk.toString()),
  });
  return { exit: await running.exit, stdout, stderr };
}

function hostProcesses(pattern: RegExp): string[] {
  const listing = spawnSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' }).stdout;
  return listing.split('\n').filter((line) => pattern.test(line) && !line.trim().startsWith('Z'));
}

describe('ExecutorClient without a transport', () => {
  it('rejects `ready` with what the process printed when it is not the executor', async () => {
    const client = new ExecutorClient({ write: () => undefined, close: () => undefined });
    client.receive(Buffer.from('OCI runtime exec failed: exec: "python3": executable file not found in $PATH\r\n'));
    await expect(client.ready).rejects.toThrow(/did not start: OCI runtime exec failed/);
    expect(client.startupText).toContain('executable file not found');
    expect(client.isClosed).toBe(true);
  });

  it('fails pending requests with an internal error naming the executor stderr when the connection ends', async () => {
    const client = new ExecutorClient({ write: () => undefined, close: () => undefined });
    client.receive(Buffer.from('{"type":"ready","version":1,"pid":9,"uid":0,"gid":0,"python":"3.11.0","has_oom_counter":false}\n'));
    await client.ready;
    const pending = client.exec({ argv: ['true'] }, { onStdout: () => undefined, onStderr: () => undefined });
    client.receiveDiagnostics(Buffer.from('Traceback (most recent call last):\nMemoryError\n'));
    client.handleClose();
    const error = await pending.exit.catch((caught: unknown) => caught);
    expect(SandboxError.isInstance(error) && error.kind === 'internal').toBe(true);
    expect((error as Error).message).toContain('MemoryError');
    // Later calls fail at once, with the same error.
    await expect(client.readFile('/x')).rejects.toBe(error);
  });

  it('routes messages by id and ignores ones for unknown requests', async () => {
    const sent: string[] = [];
    const client = new ExecutorClient({ write: (data) => sent.push(data), close: () => undefined });
    client.receive(Buffer.from('{"type":"ready","version":1,"pid":9,"uid":0,"gid":0,"python":"3.11.0","has_oom_counter":false}\n'));
    const chunks: string[] = [];
    const first = client.exec({ argv: ['a'] }, { onStdout: (chunk) => chunks.push(`1:${chunk}`), onStderr: () => undefined });
    const second = client.exec({ argv: ['b'] }, { onStdout: (chunk) => chunks.push(`2:${chunk}`), onStderr: () => undefined });
    expect(sent.map((line) => JSON.parse(line).id)).toEqual([first.id, second.id]);
    const data = (text: string): string => Buffer.from(text).toString('base64');
    client.receive(
      Buffer.from(
        [
          { id: second.id, type: 'stdout', data_b64: data('two') },
          { id: 999, type: 'stdout', data_b64: data('nobody') },
          { id: first.id, type: 'stdout', data_b64: data('one') },
          { id: second.id, type: 'exit', code: 2, signal: null, timed_out: false, oom: false, killed_by: null },
          { id: first.id, type: 'exit', code: 1, signal: null, timed_out: false, oom: false, killed_by: null },
        ]
          .map((message) => JSON.stringify(message))
          .join('\n') + '\n',
      ),
    );
    expect((await first.exit).code).toBe(1);
    expect((await second.exit).code).toBe(2);
    expect(chunks).toEqual(['2:two', '1:one']);
  });
});

describe.skipIf(localPythonMissing !== undefined)(
  localPythonMissing === undefined ? 'executor on the host (real python3)' : `executor on the host (skipped: ${localPythonMissing})`,
  () => {
    let workdir: string;
    let outside: string;
    let executor: LocalExecutor;

    beforeAll(async () => {
      workdir = await mkdtemp(join(tmpdir(), 'agentbench-executor-'));
      outside = await mkdtemp(join(tmpdir(), 'agentbench-outside-'));
      await writeFile(join(outside, 'secret.txt'), 'secret\n');
      executor = await startLocalExecutor(workdir);
    });

    afterAll(async () => {
      await executor?.stop();
      await rm(workdir, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    });

    it('says hello with its pid, ids and Python version', async () => {
      const hello = await executor.client.ready;
      expect(hello.version).toBe(1);
      expect(hello.pid).toBe(executor.child.pid);
      expect(hello.uid).toBe(process.getuid?.());
      expect(hello.python).toMatch(/^3\.\d+\.\d+$/);
    });

    it('runs argv and shell commands with exit code, separate streams, stdin, env and cwd', async () => {
      const shell = await run(executor, { shell: 'echo out; echo err >&2; exit 4' });
      expect(shell).toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
      expect(shell.exit).toMatchObject({ code: 4, signal: null, timed_out: false, killed_by: null });
      const stdin = await run(executor, { argv: ['cat'], stdin_b64: Buffer.from('fed\n').toString('base64') });
      expect(stdin.stdout).toBe('fed\n');
      const env = await run(executor, { argv: ['sh', '-c', 'echo $ONE'], env: { ONE: '1' } });
      expect(env.stdout).toBe('1\n');
      await mkdir(join(workdir, 'sub'));
      const cwd = await run(executor, { argv: ['pwd'], cwd: join(workdir, 'sub') });
      expect(cwd.stdout).toBe(`${join(workdir, 'sub')}\n`);
    });

    it('reports a missing program as 127 and a missing cwd as a typed error', async () => {
      const missing = await run(executor, { argv: ['agentbench-no-such-program'] });
      expect(missing.exit.code).toBe(127);
      expect(missing.stderr).toContain('command not found');
      await expect(run(executor, { argv: ['pwd'], cwd: join(workdir, 'nope') })).rejects.toMatchObject({ kind: 'file_not_found' });
    });

    it('reports a signal death as 128 + n', async () => {
      const killed = await run(executor, { argv: ['sh', '-c', 'kill -KILL $$'] });
      expect(killed.exit).toMatchObject({ code: 137, signal: 9, killed_by: 'signal', oom: false });
    });

    it('kills the whole tree on timeout (setsid grandchild included) and reports 124', async () => {
      const result = await run(executor, { shell: 'sleep 4391 & setsid sleep 4392 & sleep 4393', timeout_ms: 500 });
      expect(result.exit).toMatchObject({ code: 124, timed_out: true, killed_by: 'timeout', signal: 9 });
      expect(hostProcesses(/sleep 439\d/)).toEqual([]);
    });

    it('kills a command on request and reports it as aborted', async () => {
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));
      const running = executor.client.exec({ shell: 'echo go; sleep 4394' }, { onStdout: () => started(), onStderr: () => undefined });
      await begun;
      executor.client.kill(running.id);
      expect(await running.exit).toMatchObject({ code: 137, killed_by: 'abort' });
      expect(hostProcesses(/sleep 4394/)).toEqual([]);
    });

    it('ends what is left in the command session when it exits, keeps what left the session', async () => {
      // The daemon writes its pid once it runs in its own session; the command waits for that.
      const result = await run(executor, {
        shell: "sleep 4395 & setsid sh -c 'echo $$ > daemon.pid; exec sleep 4396' > /dev/null 2>&1 < /dev/null & while [ ! -s daemon.pid ]; do :; done; echo done",
      });
      expect(result.stdout).toBe('done\n');
      expect(hostProcesses(/sleep 4395/)).toEqual([]);
      expect(hostProcesses(/sleep 4396/)).toHaveLength(1);
      spawnSync('pkill', ['-f', 'sleep 4396']);
    });

    it('runs commands concurrently', async () => {
      const results = await Promise.all(Array.from({ length: 10 }, (_, index) => run(executor, { shell: `sleep 0.2; echo ${index}` })));
      expect(results.map((result) => result.stdout)).toEqual(Array.from({ length: 10 }, (_, index) => `${index}\n`));
    });

    it('writes, reads, stats, lists and makes folders inside the workspace', async () => {
      await executor.client.writeFile(join(workdir, 'a/b/file.txt'), Buffer.from('content'));
      expect((await executor.client.readFile(join(workdir, 'a/b/file.txt'))).toString()).toBe('content');
      expect(await readFile(join(workdir, 'a/b/file.txt'), 'utf8')).toBe('content');
      const status = await executor.client.stat(join(workdir, 'a/b/file.txt'));
      expect(status).toMatchObject({ exists: true, type: 'file', size: 7 });
      expect(await executor.client.stat(join(workdir, 'missing'))).toMatchObject({ exists: false });
      expect(await executor.client.makeDirectory(join(workdir, 'made/deep'))).toBe(join(workdir, 'made/deep'));
      const entries = await executor.client.listFiles(join(workdir, 'a'), true);
      expect(entries).toEqual([
        { path: 'b', type: 'directory', size: 0 },
        { path: 'b/file.txt', type: 'file', size: 7 },
      ]);
      const big = Buffer.alloc(3 * 1024 * 1024 + 11, 7);
      await executor.client.writeFile(join(workdir, 'big.bin'), big);
      expect((await executor.client.readFile(join(workdir, 'big.bin'))).equals(big)).toBe(true);
    });

    it('blocks file operations through a symbolic link to outside the workspace', async () => {
      await symlink(outside, join(workdir, 'outside-link'));
      await symlink(join(outside, 'not-yet'), join(workdir, 'dangling-link'));
      const read = executor.client.readFile(join(workdir, 'outside-link/secret.txt'));
      await expect(read).rejects.toBeInstanceOf(SymlinkBlockedError);
      await expect(read).rejects.toThrow(/outside the workspace/);
      await expect(executor.client.writeFile(join(workdir, 'dangling-link'), Buffer.from('x'))).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(executor.client.listFiles(join(workdir, 'outside-link'), false)).rejects.toMatchObject({ kind: 'symlink_blocked' });
      await expect(readFile(join(outside, 'not-yet'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('gives typed errors for missing files, folders read as files and files listed as folders', async () => {
      await expect(executor.client.readFile(join(workdir, 'nothing'))).rejects.toMatchObject({ kind: 'file_not_found' });
      await expect(executor.client.readFile(workdir)).rejects.toMatchObject({ kind: 'file_not_found', message: expect.stringMatching(/directory/) });
      await writeFile(join(workdir, 'plain.txt'), 'x');
      await expect(executor.client.listFiles(join(workdir, 'plain.txt'), false)).rejects.toMatchObject({ kind: 'not_a_directory' });
      await expect(executor.client.makeDirectory(join(workdir, 'plain.txt'))).rejects.toMatchObject({ kind: 'not_a_directory' });
    });

    it('answers a bad request with an error and keeps serving', async () => {
      await expect(executor.client.call({ op: 'read', path: 'relative/path' })).rejects.toThrow(/absolute/);
      const after = await run(executor, { argv: ['echo', 'still serving'] });
      expect(after.stdout).toBe('still serving\n');
    });

    it('cannot be hijacked by modules written into the workspace', async () => {
      const folder = await mkdtemp(join(tmpdir(), 'agentbench-hijack-'));
      try {
        for (const module of ['json', 'selectors', 'subprocess', 'threading']) {
          await writeFile(join(folder, `${module}.py`), "raise SystemExit('hijacked')\n");
        }
        const isolated = await startLocalExecutor(folder);
        const result = await run(isolated, { argv: ['echo', 'safe'] });
        expect(result.stdout).toBe('safe\n');
        await isolated.stop();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('exits when its stdin closes, killing the commands it still runs', async () => {
      const second = await startLocalExecutor(workdir);
      let started!: () => void;
      const begun = new Promise<void>((resolve) => (started = resolve));
      const running = second.client.exec({ shell: 'echo go; sleep 4397' }, { onStdout: () => started(), onStderr: () => undefined });
      const outcome = running.exit.catch((error: unknown) => error);
      await begun;
      await second.stop();
      expect(await outcome).toMatchObject({ message: 'test finished' });
      expect(hostProcesses(/sleep 4397/)).toEqual([]);
    });
  },
);
