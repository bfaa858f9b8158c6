import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSandbox,
  DEFAULT_LOG_CAP_BYTES,
  EXIT_CODE_KILLED,
  EXIT_CODE_TIMEOUT,
  LocalSandbox,
  PathEscapeError,
  SandboxError,
  SymlinkBlockedError,
} from '../src/index.js';
import { processesWithMarker, uniqueSleep } from './helpers/processes.js';

const temporaryFolders: string[] = [];
const sandboxes: LocalSandbox[] = [];

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  temporaryFolders.push(folder);
  return folder;
}

async function newSandbox(spec: Parameters<typeof LocalSandbox.create>[0] = {}): Promise<LocalSandbox> {
  const sandbox = await LocalSandbox.create(spec, { isWarningSilenced: true });
  sandboxes.push(sandbox);
  return sandbox;
}


afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.dispose()));
});

afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('LocalSandbox: commands', () => {
  it('reports exit codes, stdout and stderr; a string runs through /bin/sh, an argv array as is', async () => {
    const sandbox = await newSandbox();
    const shell = await sandbox.exec('echo out; echo err >&2; exit 3');
    expect(shell).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false, truncated: false });
    expect(shell.killedBy).toBeUndefined();
    const argv = await sandbox.exec(['printf', '%s|', 'a b', '$HOME', "it's"]);
    expect(argv).toMatchObject({ exitCode: 0, stdout: "a b|$HOME|it's|" });
  });

  it('feeds stdin, and passes the spec env under the command env', async () => {
    const sandbox = await newSandbox({ env: { SHARED: 'spec', ONLY_SPEC: 'yes' } });
    const result = await sandbox.exec('cat; echo "$SHARED $ONLY_SPEC $ONLY_EXEC"', {
      stdin: 'from stdin\n',
      env: { SHARED: 'exec', ONLY_EXEC: 'also' },
    });
    expect(result.stdout).toBe('from stdin\nexec yes also\n');
  });

  it('does not pass the host environment on (API keys stay out), only PATH/HOME-like basics', async () => {
    process.env['AGENTBENCH_TEST_SECRET'] = 'do-not-leak';
    try {
      const sandbox = await newSandbox();
      const result = await sandbox.exec('env');
      expect(result.stdout).not.toContain('do-not-leak');
      expect(result.stdout).toMatch(/^PATH=/m);
    } finally {
      delete process.env['AGENTBENCH_TEST_SECRET'];
    }
  });

  it('runs in the workspace, and in a cwd relative to it; refuses a cwd outside or missing', async () => {
    const sandbox = await newSandbox({ files: { 'sub/file.txt': 'x' } });
    expect((await sandbox.exec('pwd')).stdout.trim()).toBe(sandbox.workdir);
    expect((await sandbox.exec('pwd; ls', { cwd: 'sub' })).stdout).toBe(`${join(sandbox.workdir, 'sub')}\nfile.txt\n`);
    await expect(sandbox.exec('pwd', { cwd: '..' })).rejects.toThrow(PathEscapeError);
    await expect(sandbox.exec('pwd', { cwd: 'missing' })).rejects.toThrow(/working directory "missing" does not exist/);
  });

  it('reports death by a signal as 128 + n with killedBy signal', async () => {
    const sandbox = await newSandbox();
    const result = await sandbox.exec(['sh', '-c', 'kill -KILL $$']);
    expect(result).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'signal', signal: 9, timedOut: false });
    const terminated = await sandbox.exec(['sh', '-c', 'kill -TERM $$']);
    expect(terminated).toMatchObject({ exitCode: 143, killedBy: 'signal', signal: 15 });
  });

  it('streams output to the callbacks as it comes', async () => {
    const sandbox = await newSandbox();
    const stdoutChunks: string[] = [];
    const stderrChunks: string[] = [];
    const result = await sandbox.exec('for i in 1 2 3; do echo "line $i"; echo "warn $i" >&2; done', {
      onStdout: (chunk) => stdoutChunks.push(chunk),
      onStderr: (chunk) => stderrChunks.push(chunk),
    });
    expect(stdoutChunks.join('')).toBe(result.stdout);
    expect(stdoutChunks.join('')).toBe('line 1\nline 2\nline 3\n');
    expect(stderrChunks.join('')).toBe('warn 1\nwarn 2\nwarn 3\n');
  });

  it('gives real EOF on stdin when none is given', async () => {
    const sandbox = await newSandbox();
    expect(await sandbox.exec('cat; echo done')).toMatchObject({ exitCode: 0, stdout: 'done\n' });
  });
});

describe('LocalSandbox: timeouts and kills', () => {
  it('kills the whole tree on timeout, setsid grandchild included, and reports 124', async () => {
    const sandbox = await newSandbox();
    const marker = uniqueSleep();
    const result = await sandbox.exec(`setsid sleep ${marker} & sleep ${marker} & sh -c "sleep ${marker}"`, { timeoutSec: 1 });
    expect(result).toMatchObject({ exitCode: EXIT_CODE_TIMEOUT, timedOut: true, killedBy: 'timeout' });
    expect(await processesWithMarker(marker)).toEqual([]);
  });

  it('kills the command when its AbortSignal fires: 137, killedBy abort', async () => {
    const sandbox = await newSandbox();
    const marker = uniqueSleep();
    const controller = new AbortController();
    const running = sandbox.exec(`echo started; sleep ${marker}`, {
      signal: controller.signal,
      onStdout: () => controller.abort(),
    });
    const result = await running;
    expect(result).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort', timedOut: false });
    expect(await processesWithMarker(marker)).toEqual([]);
  });

  it('does not start a command whose signal is already aborted', async () => {
    const sandbox = await newSandbox();
    const result = await sandbox.exec('touch started', { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort' });
    await expect(sandbox.readFile('started')).rejects.toThrow(/no file or folder "started"/);
  });

  it('ends background jobs with the command, and dispose() ends daemons that left the tree', async () => {
    const sandbox = await newSandbox();
    const background = uniqueSleep();
    const daemon = uniqueSleep();
    // A plain background job (same process group) and a double-forked daemon (setsid -f).
    // The daemon writes its pid once it runs in its own session; the command waits for that.
    const result = await sandbox.exec(
      `sleep ${background} & setsid -f sh -c 'echo $$ > daemon.pid; exec sleep ${daemon}' > /dev/null 2>&1; ` +
        'while [ ! -s daemon.pid ]; do sleep 0.01; done; echo done',
    );
    expect(result.stdout).toBe('done\n');
    expect(await processesWithMarker(background)).toEqual([]);
    expect((await processesWithMarker(daemon)).length).toBe(1);
    await sandbox.dispose();
    expect(await processesWithMarker(daemon)).toEqual([]);
  });
});

describe('LocalSandbox: output cap and logs', () => {
  it('caps a 100 MB flood in the result and in the log (10 MiB a stream), naming the dropped bytes', async () => {
    const logDir = await temporaryFolder('agentbench-local-logs-');
    const sandbox = await newSandbox({ logDir });
    const size = 100 * 1024 * 1024;
    // 'A' (octal 101) appears nowhere else in the log: not in the command line nor the headers.
    const result = await sandbox.exec(`head -c ${size} /dev/zero | tr '\\0' '\\101'; echo tail-marker >&2`, {
      outputCapBytes: 64 * 1024,
      logName: 'flood',
      timeoutSec: 120,
    });
    expect(result.exitCode).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.logTruncated).toBe(true);
    expect(result.logPath).toBe(join(logDir, 'flood.log'));
    expect(result.stdout.length).toBeLessThan(64 * 1024 + 300);
    expect(result.stdout).toContain(`bytes dropped by agentbench; log: ${join(logDir, 'flood.log')} …]`);
    expect(result.stderr).toBe('tail-marker\n');
    let floodBytes = 0;
    for await (const chunk of createReadStream(join(logDir, 'flood.log'))) {
      for (const byte of chunk as Buffer) if (byte === 0x41) floodBytes++;
    }
    expect(floodBytes).toBe(DEFAULT_LOG_CAP_BYTES);
    const log = await readFile(join(logDir, 'flood.log'));
    const marker = `A\n[… ${(size - DEFAULT_LOG_CAP_BYTES).toLocaleString('en-US')} of ${size.toLocaleString('en-US')} bytes dropped by agentbench …]\nA`;
    // Not toContain: a failure would print 10 MiB.
    expect(log.includes(marker), 'the marker between head and tail').toBe(true);
    expect(log.subarray(log.length - 200).toString()).toMatch(/--- stderr ---\ntail-marker\n\n--- exit 0 after \d+ ms ---\n$/);
  });

  it('keeps what logCapBytes says, per sandbox and per command', async () => {
    const logDir = await temporaryFolder('agentbench-local-logs-');
    const sandbox = await newSandbox({ logDir, logCapBytes: 1000 });
    const bySpec = await sandbox.exec('seq 1 100000', { logName: 'spec' });
    const byCommand = await sandbox.exec('seq 1 100000', { logName: 'command', logCapBytes: 100 });
    const small = await sandbox.exec('echo small', { logName: 'small' });
    expect([bySpec.logTruncated, byCommand.logTruncated, small.logTruncated]).toEqual([true, true, false]);
    // The result keeps its own (default 1 MiB) cap: the whole output.
    expect(bySpec.stdout.endsWith('99999\n100000\n')).toBe(true);
    expect((await readFile(join(logDir, 'spec.log'))).length).toBeLessThan(1000 + 200);
    expect((await readFile(join(logDir, 'command.log'))).length).toBeLessThan(100 + 200);
    await expect(sandbox.exec('true', { logCapBytes: -1 })).rejects.toThrow('ExecOptions.logCapBytes: expected a whole number of bytes ≥ 0, found -1');
  });

  it('names log files by logName or a counter', async () => {
    const logDir = await temporaryFolder('agentbench-local-logs-');
    const sandbox = await newSandbox({ logDir });
    const first = await sandbox.exec('echo one');
    const named = await sandbox.exec('echo two', { logName: 'tool step/2' });
    expect(first.logPath).toBe(join(logDir, `${sandbox.id}-0001.log`));
    expect(named.logPath).toBe(join(logDir, 'tool_step_2.log'));
    const log = await readFile(named.logPath ?? '', 'utf8');
    expect(log).toMatch(/^\$ echo two\n--- stdout ---\ntwo\n\n--- stderr ---\n\n--- exit 0 after \d+ ms ---\n$/);
  });
});

describe('LocalSandbox: files and workspace', () => {
  it('fills a temporary workspace from hostWorkspace and files, and removes it on dispose', async () => {
    const source = await temporaryFolder('agentbench-local-source-');
    await mkdir(join(source, 'src'));
    await writeFile(join(source, 'src', 'app.py'), 'print("hi")\n');
    const sandbox = await newSandbox({ hostWorkspace: source, files: { 'README.md': '# hi\n', 'bin/data.bin': new Uint8Array([0, 1, 2]) } });
    expect(Buffer.from(await sandbox.readFile('src/app.py')).toString()).toBe('print("hi")\n');
    expect([...(await sandbox.readFile('bin/data.bin'))]).toEqual([0, 1, 2]);
    const listing = await sandbox.listFiles('.', { recursive: true });
    expect(listing.map((entry) => `${entry.type}:${entry.path}`)).toEqual([
      'file:README.md',
      'directory:bin',
      'file:bin/data.bin',
      'directory:src',
      'file:src/app.py',
    ]);
    await sandbox.dispose();
    await expect(stat(sandbox.workdir)).rejects.toThrow(/ENOENT/);
    // The source is untouched.
    expect(await readFile(join(source, 'src', 'app.py'), 'utf8')).toBe('print("hi")\n');
  });

  it('uses mountWorkspace in place and leaves it on dispose', async () => {
    const mounted = await temporaryFolder('agentbench-local-mount-');
    const sandbox = await newSandbox({ mountWorkspace: mounted });
    await sandbox.exec('echo made-by-command > out.txt');
    await sandbox.dispose();
    expect(await readFile(join(mounted, 'out.txt'), 'utf8')).toBe('made-by-command\n');
  });

  it('refuses paths that escape through .. or a symbolic link', async () => {
    const outside = await temporaryFolder('agentbench-local-outside-');
    await writeFile(join(outside, 'secret.txt'), 'secret');
    const sandbox = await newSandbox();
    await symlink(join(outside, 'secret.txt'), join(sandbox.workdir, 'link-to-secret'));
    await symlink(outside, join(sandbox.workdir, 'link-to-outside'));
    await expect(sandbox.readFile('../etc/passwd')).rejects.toThrow(PathEscapeError);
    await expect(sandbox.writeFile('/etc/agentbench-test', 'x')).rejects.toThrow(PathEscapeError);
    await expect(sandbox.readFile('link-to-secret')).rejects.toThrow(SymlinkBlockedError);
    await expect(sandbox.writeFile('link-to-outside/new.txt', 'x')).rejects.toThrow(SymlinkBlockedError);
    await expect(sandbox.copyOut('link-to-outside', join(outside, 'copy'))).rejects.toThrow(SymlinkBlockedError);
    await expect(stat(join(outside, 'new.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('copies folders in and out', async () => {
    const source = await temporaryFolder('agentbench-local-copy-');
    await mkdir(join(source, 'pkg', 'deep'), { recursive: true });
    await writeFile(join(source, 'pkg', 'deep', 'a.txt'), 'A');
    const sandbox = await newSandbox();
    await sandbox.copyIn(join(source, 'pkg'), 'vendor/pkg');
    expect((await sandbox.exec('cat vendor/pkg/deep/a.txt')).stdout).toBe('A');
    const target = join(await temporaryFolder('agentbench-local-copy-out-'), 'out');
    await sandbox.copyOut('vendor', target);
    expect(await readFile(join(target, 'pkg', 'deep', 'a.txt'), 'utf8')).toBe('A');
  });

  it('says clearly what is missing', async () => {
    const sandbox = await newSandbox();
    await expect(sandbox.readFile('nope.txt')).rejects.toMatchObject({ kind: 'file_not_found', subject: 'nope.txt' });
    await sandbox.writeFile('file.txt', 'x');
    await expect(sandbox.listFiles('file.txt')).rejects.toMatchObject({ kind: 'not_a_directory' });
    await expect(LocalSandbox.create({ mountWorkspace: '/nonexistent/agentbench' }, { isWarningSilenced: true })).rejects.toThrow(
      'SandboxSpec.mountWorkspace: folder "/nonexistent/agentbench" does not exist',
    );
    await expect(sandbox.exec('true', { timeoutSec: -1 })).rejects.toThrow('ExecOptions.timeoutSec: expected a positive number of seconds, found -1');
  });

  it('refuses every call after dispose', async () => {
    const sandbox = await newSandbox();
    await sandbox.dispose();
    await expect(sandbox.exec('true')).rejects.toSatisfy((error: unknown) => SandboxError.isInstance(error) && error.kind === 'sandbox_disposed');
  });
});

describe('LocalSandbox: warning and factory', () => {
  it('warns once per process that there is no isolation, unless silenced', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const quiet = await LocalSandbox.create({}, { isWarningSilenced: true });
      sandboxes.push(quiet);
      expect(write).not.toHaveBeenCalled();
      sandboxes.push(await LocalSandbox.create());
      sandboxes.push(await LocalSandbox.create());
      const warnings = write.mock.calls.filter(([text]) => String(text).includes('no isolation'));
      expect(warnings.length).toBe(1);
    } finally {
      write.mockRestore();
    }
  });

  it('is what createSandbox("local") makes; an unknown backend is refused by name', async () => {
    const sandbox = await createSandbox('local', {}, { backendOptions: { isWarningSilenced: true } });
    try {
      expect(sandbox.backend).toBe('local');
      expect((await sandbox.exec('echo via-factory')).stdout).toBe('via-factory\n');
    } finally {
      await sandbox.dispose();
    }
    await expect(createSandbox('kubernetes' as 'local')).rejects.toThrow('unknown sandbox backend "kubernetes"; expected one of docker, bwrap, local');
  });
});
