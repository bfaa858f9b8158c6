import { createReadStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BwrapSandbox,
  createSandbox,
  DEFAULT_LOG_CAP_BYTES,
  ensureRootfs,
  EXIT_CODE_KILLED,
  EXIT_CODE_TIMEOUT,
  SandboxError,
  type SandboxSpec,
} from '../src/index.js';
import { PathEscapeError, SymlinkBlockedError } from '../src/contract/sandbox-error.js';
import type { BwrapSandboxOptions } from '../src/bwrap/bwrap-sandbox.js';
import { RUNNER_IMAGE, useBwrapTestContext } from './helpers/bwrap-test-context.js';
import { processesWithMarker, uniqueSleep } from './helpers/processes.js';
import { buildRootfsWithoutPython } from './helpers/rootfs-without-python.js';
import { pathExists } from '@agentbench/helpers';

const { skipReason, rootfs } = await useBwrapTestContext('bwrap-sandbox.bwrap.test.ts');
const suffix = skipReason === undefined ? '' : ` (skipped: ${skipReason})`;
const isRoot = process.getuid?.() === 0;
/** Who root inside the sandbox is on the host: uid 65534 when we run as root, else ourselves. */
const sandboxUid = isRoot ? 65534 : process.getuid?.();

const sandboxes: BwrapSandbox[] = [];
const temporaryFolders: string[] = [];

async function newSandbox(spec: SandboxSpec = {}, options: BwrapSandboxOptions = {}): Promise<BwrapSandbox> {
  const sandbox = await BwrapSandbox.create({ rootfs, ...spec }, options);
  sandboxes.push(sandbox);
  return sandbox;
}

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  temporaryFolders.push(folder);
  return folder;
}


/**
 * Shell text that starts `sleep <marker>` as a daemon (its own session, through setsid)
 * and goes on only once the daemon has left the command's session.
 */
function startDaemon(marker: string): string {
  return `setsid sh -c 'echo > .daemon-${marker}; exec sleep ${marker}' > /dev/null 2>&1 & while [ ! -e .daemon-${marker} ]; do sleep 0.01; done`;
}

function isInternalError(error: unknown): boolean {
  return SandboxError.isInstance(error) && error.kind === 'internal';
}

/** An IPv4 address of this host that is not loopback (inside a new net namespace, 127.0.0.1 is the sandbox's own). */
function hostAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}

afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.dispose()));
});

afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe.skipIf(skipReason !== undefined)(`BwrapSandbox: commands${suffix}`, () => {
  it('runs every command under one long-lived executor inside the sandbox namespaces', async () => {
    const sandbox = await newSandbox();
    expect(sandbox.commandPath).toBe('executor');
    const parent = 'echo $PPID; tr "\\0" " " < /proc/$PPID/cmdline';
    const first = await sandbox.exec(parent);
    const second = await sandbox.exec(parent);
    expect(first.stdout).toMatch(/^\d+\npython3 .*agentbench-executor \/workspace $/);
    expect(second.stdout).toBe(first.stdout);
  });

  it('runs in the rootfs, as the image sets it up (python3, its ENV), with a clean environment', async () => {
    process.env['AGENTBENCH_TEST_SECRET'] = 'do-not-leak';
    try {
      const sandbox = await newSandbox({ env: { SHARED: 'spec', ONLY_SPEC: 'yes' } });
      const result = await sandbox.exec('python3 -c "import sys; print(sys.version_info[0])"; env | sort', {
        env: { SHARED: 'exec', ONLY_EXEC: 'also' },
      });
      expect(result.stdout).toMatch(/^3\n/);
      expect(result.stdout).toContain('SHARED=exec\n');
      expect(result.stdout).toContain('ONLY_SPEC=yes\n');
      expect(result.stdout).toContain('ONLY_EXEC=also\n');
      expect(result.stdout).toContain('HOME=/root\n');
      expect(result.stdout).toMatch(/^PATH=.*\/usr\/bin/m);
      expect(result.stdout).not.toContain('do-not-leak');
    } finally {
      delete process.env['AGENTBENCH_TEST_SECRET'];
    }
  });

  it('feeds stdin and streams output to callbacks; /dev/stdout works (real pipes)', async () => {
    const sandbox = await newSandbox();
    const chunks: string[] = [];
    const result = await sandbox.exec('cat; echo via-dev-stdout > /dev/stdout; echo via-dev-stderr > /dev/stderr', {
      stdin: 'from stdin\n',
      onStdout: (chunk) => chunks.push(chunk),
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'from stdin\nvia-dev-stdout\n', stderr: 'via-dev-stderr\n' });
    expect(chunks.join('')).toBe(result.stdout);
  });

  it('keeps the workspace, /tmp and /usr/local between commands; the rest of the root is read-only', async () => {
    const sandbox = await newSandbox();
    await sandbox.exec('echo kept > /workspace/state.txt; echo tmp > /tmp/state.txt; mkdir -p /usr/local/lib/agentbench-test');
    const after = await sandbox.exec('cat /workspace/state.txt /tmp/state.txt; test -d /usr/local/lib/agentbench-test && echo usr-local');
    expect(after.stdout).toBe('kept\ntmp\nusr-local\n');
    expect(Buffer.from(await sandbox.readFile('state.txt')).toString()).toBe('kept\n');
    const readOnly = await sandbox.exec('touch /etc/agentbench-test');
    expect(readOnly.exitCode).not.toBe(0);
    expect(readOnly.stderr).toMatch(/Read-only file system/);
  });

  it('runs concurrent commands and keeps their outputs apart', async () => {
    const sandbox = await newSandbox();
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => sandbox.exec(`sleep 0.$((${index} % 3)); printf 'command %s' ${index}`)));
    expect(results.map((result) => result.stdout)).toEqual(Array.from({ length: 8 }, (_, index) => `command ${index}`));
  });

  it('fails the call in flight when the executor dies, then starts a new one for the next call', async () => {
    const sandbox = await newSandbox();
    const daemon = uniqueSleep();
    await sandbox.exec(startDaemon(daemon));
    await expect(sandbox.exec('pkill -KILL -x python3; sleep 5')).rejects.toSatisfy(isInternalError);
    // The executor's pid namespace went with it.
    expect(await processesWithMarker(daemon)).toEqual([]);
    expect(await sandbox.exec(['echo', 'alive'])).toMatchObject({ exitCode: 0, stdout: 'alive\n' });
    expect(sandbox.commandPath).toBe('executor');
  });
});

describe.skipIf(skipReason !== undefined)(`BwrapSandbox: timeouts, limits and kills${suffix}`, () => {
  it('ends background jobs with the command, while a setsid daemon lives until the network changes (as in Docker)', async () => {
    const sandbox = await newSandbox();
    const job = uniqueSleep();
    const daemon = uniqueSleep();
    const result = await sandbox.exec(`sleep ${job} & ${startDaemon(daemon)}; echo done`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' });
    expect(await processesWithMarker(job)).toEqual([]);
    expect(await processesWithMarker(daemon)).toHaveLength(1);
    expect((await sandbox.exec(`ps -eo args | grep -c '^sleep ${daemon}'`)).stdout).toBe('1\n');
    await sandbox.setNetwork(true);
    expect(await processesWithMarker(daemon)).toEqual([]);
  });

  it('stops a fork bomb at the pid limit, and the sandbox still runs commands afterwards', async (context) => {
    const sandbox = await newSandbox({ limits: { pids: 64 } });
    if (sandbox.limitsEnforced.pids !== 'cgroup') context.skip(`no writable pids cgroup here: ${sandbox.limitsEnforced.notes.join('; ')}`);
    const counted = await sandbox.exec([
      'python3',
      '-c',
      [
        'import os, time',
        'children = 0',
        'try:',
        '    while children < 1000:',
        '        if os.fork() == 0:',
        '            time.sleep(60); os._exit(0)',
        '        children += 1',
        'except OSError as error:',
        '    print("blocked after", children, error.strerror)',
      ].join('\n'),
    ]);
    const match = /^blocked after (\d+) Resource temporarily unavailable$/m.exec(counted.stdout);
    expect(match, counted.stdout + counted.stderr).not.toBeNull();
    // The command and its 63 children: the whole limit, our own helpers are not counted in it.
    expect(Number(match?.[1])).toBe(63);
    const bomb = await sandbox.exec(['bash', '-c', 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived'], { timeoutSec: 30 });
    expect(bomb.stderr).toMatch(/fork|Resource temporarily unavailable/i);
    expect(await sandbox.exec(['echo', 'still here'])).toMatchObject({ exitCode: 0, stdout: 'still here\n' });
    expect(Number((await sandbox.exec('ps -e --no-headers | wc -l')).stdout.trim())).toBeLessThan(6);
  });

  it('without cgroups, limits memory per process by RLIMIT_AS and says what is not enforced', async () => {
    const sandbox = await BwrapSandbox.create({ rootfs, limits: { memoryMb: 256 } }, { shouldUseCgroups: false });
    sandboxes.push(sandbox);
    expect(sandbox.cgroupPaths).toEqual([]);
    expect(sandbox.limitsEnforced).toMatchObject({ memory: 'rlimit', pids: 'none', cpus: 'none' });
    expect(sandbox.limitsEnforced.notes.join('\n')).toMatch(/pids and cpus limits are not enforced/);
    const limit = await sandbox.exec('ulimit -v');
    expect(limit.stdout).toBe(`${256 * 1024}\n`);
    const hog = await sandbox.exec(['python3', '-c', 'try:\n    x = bytearray(512 * 1024 * 1024)\nexcept MemoryError:\n    print("MemoryError")']);
    expect(hog.stdout).toBe('MemoryError\n');
  });

});

describe.skipIf(skipReason !== undefined)(`BwrapSandbox: network${suffix}`, () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  it('cuts the network by ending every process started with it; a command running then reports 137 abort', async () => {
    const sandbox = await newSandbox({ hasNetwork: true });
    const daemon = uniqueSleep();
    await sandbox.exec(startDaemon(daemon));
    expect(await processesWithMarker(daemon)).toHaveLength(1);
    const command = uniqueSleep();
    let onStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      onStarted = resolve;
    });
    const running = sandbox.exec(`echo started; sleep ${command}`, { onStdout: () => onStarted() });
    await started;
    await sandbox.setNetwork(false);
    // Gone by the time setNetwork resolves, not some time later.
    expect(await processesWithMarker(daemon)).toEqual([]);
    expect(await processesWithMarker(command)).toEqual([]);
    expect(await running).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort', stdout: 'started\n' });
    expect((await sandbox.exec('echo after')).stdout).toBe('after\n');
  });
});

describe.skipIf(skipReason !== undefined)(`BwrapSandbox: files and lifecycle${suffix}`, () => {
  it('leaves what the host writes into the workspace (files, copyIn, spec.files) writable by the sandbox', async () => {
    const source = await temporaryFolder('agentbench-bwrap-copy-in-');
    await mkdir(join(source, 'nested'), { recursive: true });
    await writeFile(join(source, 'nested', 'copied.txt'), 'copied\n');
    const sandbox = await newSandbox({ files: { 'spec/seeded.txt': 'seeded\n' } });
    await sandbox.writeFile('written/deep/file.txt', 'written\n');
    await sandbox.copyIn(source, 'copied-in/tree');
    const result = await sandbox.exec(
      'for file in spec/seeded.txt written/deep/file.txt copied-in/tree/nested/copied.txt; do echo more >> "$file" || exit 1; done; touch written/deep/new copied-in/tree/nested/new spec/new',
    );
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(Buffer.from(await sandbox.readFile('copied-in/tree/nested/copied.txt')).toString()).toBe('copied\nmore\n');
  });

  it('gives a mountWorkspace to the sandbox user (chown -R before the first command), even below a folder that user cannot enter', async () => {
    const privateParent = await temporaryFolder('agentbench-bwrap-private-');
    await chmod(privateParent, 0o700);
    const mounted = join(privateParent, 'repo');
    await mkdir(join(mounted, 'src'), { recursive: true });
    const sandbox = await newSandbox({ mountWorkspace: mounted });
    // Filled after the sandbox started, as the harness's clone does: still the sandbox user's to change.
    await writeFile(join(mounted, 'src', 'app.py'), 'print(1)\n');
    expect(await sandbox.exec('echo "print(2)" >> src/app.py && touch src/new.py')).toMatchObject({ exitCode: 0 });
    for (const path of [mounted, join(mounted, 'src'), join(mounted, 'src', 'app.py'), join(mounted, 'src', 'new.py')]) {
      expect((await stat(path)).uid, path).toBe(sandboxUid);
    }
    // The parent itself is untouched: the sandbox reaches the folder through a staged mount, not a chmod.
    expect((await stat(privateParent)).mode & 0o777).toBe(0o700);
  });

  it('uses mountWorkspace in place and leaves it on dispose', async () => {
    const mounted = await temporaryFolder('agentbench-bwrap-mount-');
    await writeFile(join(mounted, 'input.txt'), 'from host\n');
    const sandbox = await newSandbox({ mountWorkspace: mounted });
    expect((await sandbox.exec('cat input.txt; echo made > out.txt')).stdout).toBe('from host\n');
    await sandbox.dispose();
    expect(await readFile(join(mounted, 'out.txt'), 'utf8')).toBe('made\n');
  });

  it('leaves no process, cgroup or folder behind after dispose', async () => {
    const sandbox = await newSandbox({ files: { 'a.txt': 'a' } });
    const daemon = uniqueSleep();
    await sandbox.exec(startDaemon(daemon));
    const marker = uniqueSleep();
    const running = sandbox.exec(`sleep ${marker}`, { timeoutSec: 60 });
    await sandbox.exec('true');
    const cgroupPaths = sandbox.cgroupPaths;
    const folders = [sandbox.stateFolder];
    for (const path of [...cgroupPaths, ...folders]) expect(await pathExists(path)).toBe(true);
    await sandbox.dispose();
    expect(await running).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort' });
    expect(await processesWithMarker(marker)).toEqual([]);
    expect(await processesWithMarker(daemon)).toEqual([]);
    expect(await processesWithMarker(sandbox.stateFolder)).toEqual([]);
    for (const path of [...cgroupPaths, ...folders]) expect(await pathExists(path), path).toBe(false);
    await expect(sandbox.exec('true')).rejects.toSatisfy((error: unknown) => SandboxError.isInstance(error) && error.kind === 'sandbox_disposed');
  });

  it('is what createSandbox("bwrap") makes', async () => {
    const sandbox = await createSandbox('bwrap', { rootfs });
    try {
      expect(sandbox.backend).toBe('bwrap');
      expect((await sandbox.exec('echo via-factory')).stdout).toBe('via-factory\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('says clearly when the rootfs or the workdir is unusable', async () => {
    await expect(BwrapSandbox.create({})).rejects.toThrow(/SandboxSpec.rootfs: the bwrap backend needs a root file system folder/);
    await expect(BwrapSandbox.create({ rootfs: '/nonexistent/rootfs' })).rejects.toThrow('SandboxSpec.rootfs: folder "/nonexistent/rootfs" does not exist');
    await expect(BwrapSandbox.create({ rootfs, workdir: '/no/such/folder' })).rejects.toThrow(/SandboxSpec.workdir: "\/no\/such\/folder" is not a folder in the root file system/);
    await expect(BwrapSandbox.create({ rootfs, limits: { pids: 0 } })).rejects.toThrow('SandboxSpec.limits.pids: expected a positive number, found 0');
    if (isRoot) {
      // The sandbox user is not root on the host: a root folder only root may read is unusable.
      const privateRootfs = await temporaryFolder('agentbench-bwrap-private-rootfs-');
      await mkdir(join(privateRootfs, 'bin'));
      await writeFile(join(privateRootfs, 'bin', 'sh'), '');
      await chmod(privateRootfs, 0o700);
      await expect(BwrapSandbox.create({ rootfs: privateRootfs, workdir: '/bin' })).rejects.toThrow(/uid 65534 \(the sandbox's user\) cannot read the root folder .* \(mode 700\)/);
    }
  });
});

describe.skipIf(skipReason !== undefined)(`BwrapSandbox: one bwrap per command (the fallback without python3)${suffix}`, () => {
  it('runs commands with exit codes, output and stdin when forced to (shouldUseExecutor: false)', async () => {
    const sandbox = await newSandbox({ env: { LEVEL: 'spec' } }, { shouldUseExecutor: false });
    expect(sandbox.commandPath).toBe('per-command');
    expect(await sandbox.exec('echo out; echo err >&2; exit 3')).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    expect(await sandbox.exec('cat; echo "$LEVEL/$OWN"', { stdin: 'in\n', env: { OWN: 'exec' } })).toMatchObject({ exitCode: 0, stdout: 'in\nspec/exec\n' });
    expect(await sandbox.exec(['sh', '-c', 'kill -KILL $$'])).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'signal', signal: 9 });
    // Started by bwrap itself, not by an executor.
    expect((await sandbox.exec('tr "\\0" " " < /proc/$PPID/cmdline')).stdout).toMatch(/^\S*bwrap /);
    // Same codes as on the executor path, though bwrap itself exits 1 when it cannot execute.
    expect(await sandbox.exec(['no-such-program-4711'])).toMatchObject({ exitCode: 127 });
    expect(await sandbox.exec(['/etc/passwd'])).toMatchObject({ exitCode: 126 });
  });

  it('kills the whole tree on timeout (124) and on abort (137)', async () => {
    const sandbox = await newSandbox({}, { shouldUseExecutor: false });
    const marker = uniqueSleep();
    const timedOut = await sandbox.exec(`setsid sleep ${marker} & sleep ${marker}`, { timeoutSec: 1 });
    expect(timedOut).toMatchObject({ exitCode: EXIT_CODE_TIMEOUT, timedOut: true, killedBy: 'timeout' });
    const controller = new AbortController();
    const aborted = await sandbox.exec(`echo started; sleep ${marker}`, { signal: controller.signal, onStdout: () => controller.abort() });
    expect(aborted).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'abort' });
    expect(await processesWithMarker(marker)).toEqual([]);
  });

  describe('with a rootfs that has no python3', () => {
    let smallRootfs = '';
    let buildFailure: string | undefined;
    beforeAll(async () => {
      smallRootfs = await temporaryFolder('agentbench-rootfs-without-python-');
      buildFailure = await buildRootfsWithoutPython(smallRootfs);
    });

    it('falls back to one bwrap per command by itself, and says so', async (context) => {
      if (buildFailure !== undefined) context.skip(buildFailure);
      const notes: string[] = [];
      const sandbox = await newSandbox({ rootfs: smallRootfs }, { onDebug: (message) => notes.push(message) });
      expect(sandbox.commandPath).toBe('per-command');
      expect(notes.join('\n')).toMatch(/has no python3; starting one bwrap per command/);
      expect(await sandbox.exec('echo "$HOME" > home.txt; cat home.txt')).toMatchObject({ exitCode: 0, stdout: '/root\n' });
      expect(await sandbox.exec('sleep 30', { timeoutSec: 1 })).toMatchObject({ exitCode: EXIT_CODE_TIMEOUT, killedBy: 'timeout' });
      await sandbox.setNetwork(true);
      expect((await sandbox.exec('echo still')).stdout).toBe('still\n');
    });
  });
});

describe.skipIf(skipReason !== undefined || process.env['AGENTBENCH_TEST_ROOTFS'] !== undefined)(`ensureRootfs${suffix}`, () => {
  it('returns an existing rootfs at once, without asking Docker', async () => {
    const unreachable = new Dockerode({ socketPath: '/nonexistent/docker.sock' });
    expect(await ensureRootfs({ image: RUNNER_IMAGE, docker: unreachable })).toBe(rootfs);
  });

  it('exports into a fresh folder atomically, records the image, and leaves no container', async () => {
    const parent = await temporaryFolder('agentbench-rootfs-test-');
    const docker = new Dockerode();
    // Containers this process made for an export (other test files may create containers meanwhile).
    const ourLabels = ['dev.agentbench.managed=true', 'dev.agentbench.purpose=rootfs-export', `dev.agentbench.pid=${process.pid}`];
    const since = Math.floor(Date.now() / 1000) - 1;
    const dir = await ensureRootfs({ image: RUNNER_IMAGE, dir: join(parent, 'runner'), docker });
    expect(dir).toBe(join(parent, 'runner'));
    expect(await pathExists(join(dir, 'bin', 'sh'))).toBe(true);
    expect(await readdir(parent)).toEqual(['runner', 'runner.image.json']);
    const description = JSON.parse(await readFile(join(parent, 'runner.image.json'), 'utf8')) as { image: string; env: string[] };
    expect(description.image).toBe(RUNNER_IMAGE);
    expect(description.env.some((entry) => entry.startsWith('PATH='))).toBe(true);
    expect(await docker.listContainers({ all: true, filters: { label: ourLabels } })).toEqual([]);
    // The engine's event log shows our labelled export container was created, then destroyed.
    const until = Math.ceil(Date.now() / 1000) + 1;
    const events = await docker.getEvents({ since, until, filters: { type: ['container'], label: ourLabels } });
    let text = '';
    for await (const chunk of events as AsyncIterable<Buffer>) text += chunk.toString();
    const actions = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { Action: string }).Action);
    expect(actions).toContain('create');
    expect(actions).toContain('destroy');
  }, 300_000); // a whole image exported and unpacked: over a minute at a load of 37

  it('names a missing image and leaves no half-made folder', async () => {
    const parent = await temporaryFolder('agentbench-rootfs-test-');
    await expect(ensureRootfs({ image: 'agentbench/does-not-exist:0', dir: join(parent, 'missing') })).rejects.toMatchObject({
      kind: 'image_missing',
      subject: 'agentbench/does-not-exist:0',
    });
    expect(await readdir(parent)).toEqual([]);
  });
});
