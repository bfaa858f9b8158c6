import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalSandbox, type Sandbox, type SandboxSpec } from '@agentbench/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, type LoopFixture } from '../../../../agent-loop/test/fixtures.js';
import { cloneStagingDirectory, taskRunPaths } from '../../artifacts/attempt-paths.js';
import { AttemptContext } from '../attempt-context.js';
import { cloneWhileSandboxStarts } from './clone.js';

let fixture: LoopFixture | undefined;
let runDir: string | undefined;
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.dispose();
  await fixture?.cleanup();
  fixture = undefined;
  if (runDir !== undefined) await rm(runDir, { recursive: true, force: true });
  runDir = undefined;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await pause(10);
  }
  return true;
}

/** What a fake factory saw of the workspace folder while it made the sandbox. */
interface FolderWatch {
  atRequest?: string[];
  atHandOut?: string[];
  /** Whether git had written into its staging folder by the time the sandbox was handed out. */
  wasGitRunningMeanwhile?: boolean;
}

async function contextWith(createSandbox: (spec: SandboxSpec) => Promise<Sandbox>): Promise<AttemptContext> {
  fixture = await createLoopFixture();
  runDir = await mkdtemp(path.join(tmpdir(), 'clone-stage-'));
  return new AttemptContext({ loaded: fixture.task, paths: taskRunPaths(runDir), runId: 'clone-test', createSandbox });
}

async function localSandbox(spec: SandboxSpec): Promise<Sandbox> {
  const sandbox = await LocalSandbox.create(spec, { isWarningSilenced: true });
  sandboxes.push(sandbox);
  return sandbox;
}

describe('the clone stage', () => {
  it('asks for the sandbox with the workspace empty, and git writes nothing into it until the sandbox is handed out', async () => {
    const watch: FolderWatch = {};
    const context = await contextWith(async (spec) => {
      const workspace = spec.mountWorkspace as string;
      watch.atRequest = await readdir(workspace);
      // A hand-out that lasts until git has started (or 20 s), so a git writing into the workspace would be seen.
      watch.wasGitRunningMeanwhile = await waitFor(() => existsSync(path.join(cloneStagingDirectory(workspace), 'repo', '.git')), 20_000);
      await pause(100);
      watch.atHandOut = await readdir(workspace);
      return localSandbox(spec);
    });

    const { sandbox, repoPath, prepared } = await cloneWhileSandboxStarts(context);

    expect(watch).toEqual({ atRequest: [], atHandOut: [], wasGitRunningMeanwhile: true });
    const workspace = context.paths.workspaceDir;
    expect(repoPath).toBe('repo');
    expect(prepared.repoDir).toBe(path.join(workspace, 'repo'));
    expect(await readFile(path.join(workspace, 'repo', 'status.txt'), 'utf8')).toBe('broken\n');
    // The sandbox sees the repository in the folder it mounted.
    expect((await sandbox.exec('cat repo/status.txt')).stdout).toBe('broken\n');
    expect(existsSync(cloneStagingDirectory(workspace))).toBe(false);
    expect(context.commitSha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('survives a hand-out that moves the workspace folder away and back while git runs (a warm pool’s mount slot)', async () => {
    const context = await contextWith(async (spec) => {
      const workspace = spec.mountWorkspace as string;
      // What MountSlot.takePlaceOf does, with a window: the folder is elsewhere while git fetches.
      const slot = `${workspace}.slot`;
      await rename(workspace, slot);
      await pause(300);
      await rename(slot, workspace);
      return localSandbox(spec);
    });

    const { sandbox } = await cloneWhileSandboxStarts(context);

    expect((await sandbox.exec('cat repo/status.txt')).stdout).toBe('broken\n');
    expect(await readdir(context.paths.workspaceDir)).toEqual(['repo']);
  });

  it('keeps what git wrote in the workspace and leaves no staging folder when the sandbox fails', async () => {
    const context = await contextWith(async () => {
      await pause(100);
      throw new Error('engine gone');
    });

    await expect(cloneWhileSandboxStarts(context)).rejects.toThrow('engine gone');

    expect(existsSync(path.join(context.paths.workspaceDir, 'repo', 'status.txt'))).toBe(true);
    expect(existsSync(cloneStagingDirectory(context.paths.workspaceDir))).toBe(false);
  });
});
