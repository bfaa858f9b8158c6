import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../src/contract/sandbox-error.js';
import type { DockerSandbox } from '../src/docker/docker-sandbox.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('docker-exec.docker.test.ts');
const title = context.skipReason === undefined ? 'DockerSandbox exec' : `DockerSandbox exec (skipped: ${context.skipReason})`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    sandbox = await context.createSandbox({ env: { SANDBOX_LEVEL: 'spec' } }, 'exec');
  });

  afterAll(async () => {
    await sandbox?.dispose();
  });

  it('runs through the executor, not one engine exec per command', () => {
    expect(sandbox.commandPath).toBe('executor');
  });

  it('runs concurrent commands and keeps their outputs apart', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => sandbox.exec(`sleep 0.$((${index} % 3)); printf 'command %s' ${index}`)),
    );
    results.forEach((result, index) => {
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(`command ${index}`);
    });
  });

  it('validates its arguments with clear errors', async () => {
    await expect(sandbox.exec('')).rejects.toThrow(/empty/);
    await expect(sandbox.exec(['echo'], { timeoutSec: -1 })).rejects.toThrow(/timeoutSec/);
    await expect(sandbox.exec(['echo'], { env: { 'BAD=NAME': 'x' } })).rejects.toThrow(/BAD=NAME/);
  });

  it('fails the call in flight when the executor dies, then restarts it for the next call', async () => {
    // The command's parent is the executor.
    const killed = sandbox.exec(['sh', '-c', 'kill -9 $PPID; sleep 5']);
    await expect(killed).rejects.toSatisfy((error: unknown) => SandboxError.isInstance(error) && error.kind === 'internal');
    const next = await sandbox.exec(['echo', 'alive']);
    expect(next.stdout).toBe('alive\n');
    expect(sandbox.commandPath).toBe('executor');
  });
});
