import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Sandbox, SandboxSnapshot, SandboxSpec } from '@agentbench/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, type LoopFixture } from '../../../../agent-loop/test/fixtures.js';
import { taskRunPaths } from '../../artifacts/attempt-paths.js';
import { AttemptContext } from '../attempt-context.js';
import { startVerdictFromSnapshot, startVerdictWithSetup } from './verdict-sandbox.js';

let fixture: LoopFixture | undefined;
let runDir: string | undefined;

afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
  if (runDir !== undefined) await rm(runDir, { recursive: true, force: true });
  runDir = undefined;
});

/** What an installed agent adds to its attempt's sandbox: the agent's install and its gateway's socket folder. */
const AGENT_MOUNTS = [
  { hostPath: '/opt/agentbench/agents/codex', sandboxPath: '/opt/agentbench/agent' },
  { hostPath: '/run/agentbench/gateway', sandboxPath: '/run/agentbench/gateway' },
];

/** A context of an installed agent's attempt; every sandbox its factory is asked for is refused, after its spec is kept. */
async function agentContext(specs: SandboxSpec[]): Promise<AttemptContext> {
  fixture = await createLoopFixture();
  runDir = await mkdtemp(path.join(tmpdir(), 'verdict-sandbox-'));
  const context = new AttemptContext({
    loaded: fixture.task,
    paths: taskRunPaths(runDir),
    runId: 'verdict-mounts',
    createSandbox: async (spec) => {
      specs.push(spec);
      throw new Error('no sandbox in this test: its spec is what is checked');
    },
  });
  context.readOnlyMounts = AGENT_MOUNTS;
  // The agent's own sandbox gets them.
  expect(context.sandboxSpec().readOnlyMounts).toEqual(AGENT_MOUNTS);
  return context;
}

describe("the verdict's sandbox", () => {
  it("gets none of the agent's read-only mounts when it sets the task up again", async () => {
    const specs: SandboxSpec[] = [];
    const context = await agentContext(specs);
    await startVerdictWithSetup(context).dispose();
    expect(specs).toHaveLength(1);
    expect(specs[0]?.labels).toMatchObject({ role: 'verdict' });
    expect(specs[0]).not.toHaveProperty('readOnlyMounts');
  });

  it("gets none of the agent's read-only mounts when it starts from the attempt's snapshot", async () => {
    const specs: SandboxSpec[] = [];
    const context = await agentContext([]);
    await mkdir(context.paths.workspaceDir, { recursive: true });
    const snapshot: SandboxSnapshot = {
      image: 'agentbench-snapshot:test',
      dispose: async () => undefined,
      createSandbox: async (spec) => {
        specs.push(spec);
        throw new Error('no sandbox in this test: its spec is what is checked');
      },
    };
    const agentSandbox = { snapshot: async () => snapshot } as unknown as Sandbox;
    const verdict = await startVerdictFromSnapshot(context, agentSandbox, 'repo');
    await verdict?.dispose();
    expect(verdict?.setup).toBe('snapshot');
    expect(specs).toHaveLength(1);
    expect(specs[0]?.labels).toMatchObject({ role: 'verdict' });
    expect(specs[0]).not.toHaveProperty('readOnlyMounts');
  });
});
