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
  SandboxError,
} from '../src/index.js';
import { PathEscapeError, SymlinkBlockedError } from '../src/contract/sandbox-error.js';
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
});

describe('LocalSandbox: timeouts and kills', () => {
});

describe('LocalSandbox: output cap and logs', () => {
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
