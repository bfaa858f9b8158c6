import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { ImageMissingError, RuntimeUnavailableError, SandboxError } from '../contract/sandbox-error.js';
import { DockerSandbox } from './docker-sandbox.js';
import { toSandboxError } from './docker-errors.js';

describe('engine errors', () => {
  it('reports an unreachable engine as engine_unavailable with a hint to start dockerd', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentbench-no-engine-'));
    try {
      const docker = new Dockerode({ socketPath: join(folder, 'docker.sock') });
      const error = await DockerSandbox.create({}, { docker }).catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).kind).toBe('engine_unavailable');
      expect((error as Error).message).toContain(join(folder, 'docker.sock'));
      expect((error as Error).message).toMatch(/start dockerd/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('maps a 404 for the image to ImageMissingError with how to get it', () => {
    const docker = new Dockerode({ socketPath: '/nonexistent.sock' });
    const error = toSandboxError(docker, { statusCode: 404, json: { message: 'No such image: some/image:1' } }, { action: 'create', image: 'some/image:1' });
    expect(error).toBeInstanceOf(ImageMissingError);
    expect(error.message).toContain('some/image:1');
    expect(error.message).toContain('pnpm ab image build');
    expect(error.message).toContain('docker pull some/image:1');
  });

  it('maps a refused spec to invalid_spec and anything else to internal, keeping the engine message', () => {
    const docker = new Dockerode({ socketPath: '/nonexistent.sock' });
    const refused = toSandboxError(docker, { statusCode: 400, json: { message: 'Range of CPUs is from 0.01 to 2.00' } }, { action: 'create a container' });
    expect(refused.kind).toBe('invalid_spec');
    expect(refused.message).toContain('Range of CPUs');
    const other = toSandboxError(docker, { statusCode: 500, json: { message: 'driver failed' } }, { action: 'start' });
    expect(other.kind).toBe('internal');
    expect(other.message).toContain('driver failed');
  });

  it('maps an unknown runtime name to runtime_unavailable naming the runtime and the gVisor setup', () => {
    const docker = new Dockerode({ socketPath: '/nonexistent.sock' });
    for (const message of ['Unknown runtime specified runsc', 'unknown or invalid runtime name: runsc']) {
      const error = toSandboxError(docker, { statusCode: 400, json: { message } }, { action: 'create a container' });
      expect(error).toBeInstanceOf(RuntimeUnavailableError);
      expect(error.kind).toBe('runtime_unavailable');
      expect(error.subject).toBe('runsc');
      expect(error.message).toContain('"runsc" is not registered');
      expect(error.message).toContain('scripts/setup.sh --with-gvisor');
    }
    const other = toSandboxError(docker, { statusCode: 400, json: { message: 'Unknown runtime specified kata' } }, { action: 'create a container' });
    expect(other.message).toContain('daemon.json');
  });

  it('maps an OCI runtime failure of a container that asked for a runtime to runtime_unavailable, and not without one', () => {
    const docker = new Dockerode({ socketPath: '/nonexistent.sock' });
    const failure = { statusCode: 500, json: { message: 'OCI runtime create failed: cannot run with network enabled in root network namespace' } };
    const error = toSandboxError(docker, failure, { action: 'start the sandbox container', runtime: 'runsc' });
    expect(error.kind).toBe('runtime_unavailable');
    expect(error.message).toContain('"runsc" failed to run the container');
    expect(error.message).toContain('root network namespace');
    expect(toSandboxError(docker, failure, { action: 'start the sandbox container' }).kind).toBe('internal');
  });
});
