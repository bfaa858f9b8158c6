import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { LABEL_MANAGED, LABEL_RUN_ID, LABEL_TASK_ID } from '../src/core/engine/labels.js';
import { SymlinkBlockedError } from '../src/contract/sandbox-error.js';
import { RUNNER_IMAGE, useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('docker-fallback.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox without python3' : `DockerSandbox without python3 (skipped: ${context.skipReason})`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  const image = `agentbench/test-no-python:${context.runId}`;
  const notes: string[] = [];
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    // The runner image minus python3, made here so the test needs no registry.
    const builder = await context.docker.createContainer({
      Image: RUNNER_IMAGE,
      Entrypoint: ['sh', '-c'],
      Cmd: ['rm -f /usr/bin/python3 /usr/bin/python3.*'],
      Labels: { [LABEL_MANAGED]: 'true', [LABEL_RUN_ID]: context.runId, [LABEL_TASK_ID]: 'no-python-build' },
    });
    try {
      await builder.start();
      const outcome = (await builder.wait()) as { StatusCode: number };
      if (outcome.StatusCode !== 0) throw new Error(`removing python3 failed with ${outcome.StatusCode}`);
      const [repo, tag] = image.split(':');
      await builder.commit({ repo, tag, changes: ['ENTRYPOINT []', 'CMD ["/bin/bash"]'] });
    } finally {
      await builder.remove({ force: true });
    }
    sandbox = await DockerSandbox.create(
      { image, labels: { runId: context.runId, taskId: 'no-python' }, files: { 'seed.txt': 'seeded\n' } },
      { docker: context.docker, onDebug: (note) => notes.push(note) },
    );
  });

  afterAll(async () => {
    await sandbox?.dispose();
    await context.docker.getImage(image).remove({ force: true }).catch(() => undefined);
  });

  it('falls back to one engine exec per command and says so in a debug note', () => {
    expect(sandbox.commandPath).toBe('engine-exec');
    expect(notes.join('\n')).toMatch(/no python3/);
  });

  it('runs commands with the same results: exit code, stdout, stderr, stdin, env, cwd', async () => {
    const result = await sandbox.exec('echo out; echo err >&2; exit 5');
    expect(result).toMatchObject({ exitCode: 5, stdout: 'out\n', stderr: 'err\n', timedOut: false });
    expect((await sandbox.exec(['cat'], { stdin: 'piped\n' })).stdout).toBe('piped\n');
    expect((await sandbox.exec('echo $FROM_EXEC', { env: { FROM_EXEC: 'yes' } })).stdout).toBe('yes\n');
    await sandbox.exec(['mkdir', '-p', 'sub']);
    expect((await sandbox.exec(['pwd'], { cwd: 'sub' })).stdout).toBe('/workspace/sub\n');
    expect((await sandbox.exec(['no-such-program'])).exitCode).toBe(127);
    await expect(sandbox.exec(['pwd'], { cwd: 'missing-folder' })).rejects.toMatchObject({ kind: 'file_not_found' });
  });

  it('kills the whole tree on timeout and reports 124', async () => {
    const result = await sandbox.exec('sleep 4280 & setsid sleep 4281 & sleep 4282', { timeoutSec: 1 });
    expect(result).toMatchObject({ exitCode: 124, timedOut: true, killedBy: 'timeout' });
    let left: string[] = [];
    // The kill runs in its own exec: look until the processes are gone (bounded).
    for (let attempt = 0; attempt < 20; attempt++) {
      const listing = await sandbox.exec(['ps', '-eo', 'stat=,args=']);
      left = listing.stdout.split('\n').filter((line) => /sleep 428\d/.test(line) && !line.trim().startsWith('Z'));
      if (left.length === 0) break;
    }
    expect(left).toEqual([]);
  });

  it('reads, writes and lists files with the same path safety', async () => {
    expect(Buffer.from(await sandbox.readFile('seed.txt')).toString()).toBe('seeded\n');
    await sandbox.writeFile('dir/written.txt', 'written\n');
    expect((await sandbox.exec(['cat', 'dir/written.txt'])).stdout).toBe('written\n');
    const entries = await sandbox.listFiles('.', { recursive: true });
    expect(entries.map((entry) => entry.path)).toEqual(expect.arrayContaining(['dir', 'dir/written.txt', 'seed.txt', 'sub']));
    expect(entries.find((entry) => entry.path === 'seed.txt')).toEqual({ path: 'seed.txt', type: 'file', size: 7 });
    await sandbox.exec(['ln', '-sfn', '/etc', 'etc-link']);
    await expect(sandbox.readFile('etc-link/passwd')).rejects.toBeInstanceOf(SymlinkBlockedError);
    await expect(sandbox.readFile('missing')).rejects.toMatchObject({ kind: 'file_not_found' });
    await expect(sandbox.readFile('../etc/passwd')).rejects.toMatchObject({ kind: 'path_escape' });
  });
});
