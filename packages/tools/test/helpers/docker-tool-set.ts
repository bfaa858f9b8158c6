import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerSandbox, listManagedContainers, removeManagedContainers, SandboxError } from '@agentbench/sandbox';
import type { ToolName, ToolResult } from '@agentbench/schemas';
import { afterAll, expect } from 'vitest';
import { createToolSet, type ToolContext, type ToolSet } from '../../src/index.js';
import { expectValidToolResult } from './local-tool-set.js';

export const RUNNER_IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';
export const REPOSITORY_ROOT = '/workspace/repo';

export interface DockerToolSet {
  sandbox: DockerSandbox;
  tools: ToolSet;
  artifactsDir: string;
  call(tool: ToolName, params: Record<string, unknown>): Promise<ToolResult>;
  shell(command: string): Promise<string>;
}

/**
 * Call once at the top of a `*.docker.test.ts` file (top-level await). Starts one sandbox
 * from the runner image with `files` under /workspace/repo, or returns the reason it cannot
 * (no engine, no image): the file's tests are then skipped with that reason, unless
 * AGENTBENCH_REQUIRE_DOCKER=1, which fails instead. The file ends by removing the sandbox
 * and asserting that no container with its run id is left.
 */
export async function useDockerToolSet(
  fileName: string,
  files: Record<string, string | Uint8Array>,
  context: Partial<ToolContext> = {},
): Promise<{ workspace: DockerToolSet | undefined; skipReason: string | undefined }> {
  const runId = `test-tools-${Date.now().toString(36)}-${process.pid}`;
  const repositoryFiles = Object.fromEntries(Object.entries(files).map(([path, content]) => [`repo/${path}`, content]));
  const artifactsDir = await mkdtemp(join(tmpdir(), 'agentbench-tools-docker-'));
  let sandbox: DockerSandbox;
  try {
    sandbox = await DockerSandbox.create({ image: RUNNER_IMAGE, files: repositoryFiles, labels: { runId, taskId: 'tools' }, logDir: join(artifactsDir, 'logs') });
  } catch (error) {
    const isUnavailable = SandboxError.isInstance(error) && ['engine_unavailable', 'image_missing', 'backend_unavailable'].includes(error.kind);
    if (!isUnavailable) throw error;
    const reason = `${(error as Error).message.split('\n')[0]}`;
    if (process.env['AGENTBENCH_REQUIRE_DOCKER'] === '1') throw new Error(`AGENTBENCH_REQUIRE_DOCKER=1 but ${reason}`);
    console.warn(`[skipped] ${fileName}: ${reason}`);
    await rm(artifactsDir, { recursive: true, force: true });
    return { workspace: undefined, skipReason: reason };
  }
  const tools = createToolSet({ sandbox, root: REPOSITORY_ROOT, artifactsDir, ...context });
  afterAll(async () => {
    await sandbox.dispose();
    await rm(artifactsDir, { recursive: true, force: true });
    const left = await listManagedContainers({ runId });
    if (left.length > 0) await removeManagedContainers({ runId });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });
  let counter = 0;
  return {
    skipReason: undefined,
    workspace: {
      sandbox,
      tools,
      artifactsDir,
      async call(tool, params) {
        counter += 1;
        return expectValidToolResult(await tools.execute({ tool, params, request_id: `docker-${counter}` }));
      },
      async shell(command) {
        const result = await sandbox.exec(command, { cwd: REPOSITORY_ROOT });
        if (result.exitCode !== 0) throw new Error(`${command} failed (${result.exitCode}): ${result.stderr}`);
        return result.stdout;
      },
    },
  };
}
