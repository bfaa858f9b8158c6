import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Observation } from '@agentbench/agent-loop';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OracleAgentError } from '../errors/oracle-agent-error.js';
import { createOracleAgent, createOracleAgentIfAny, ORACLE_REQUEST_ID } from './oracle-agent.js';

let taskDir: string;
beforeEach(async () => {
  taskDir = await mkdtemp(path.join(tmpdir(), 'ab-oracle-'));
});
afterEach(async () => {
  await rm(taskDir, { recursive: true, force: true });
});

/** An observation with only what the oracle reads; the rest of the loop's Observation does not matter to it. */
function observed(lastResults: Array<{ result: Record<string, unknown> }>): Observation {
  return { lastResults } as unknown as Observation;
}

const gold = '--- a/w.py\n+++ b/w.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n';

describe('oracle agent', () => {
  it('applies the gold patch beside the task, then stops as done', async () => {
    await writeFile(path.join(taskDir, 'gold.patch'), gold);
    const agent = await createOracleAgent({ task: { dir: taskDir } });
    expect(await agent.nextAction(observed([]))).toEqual({
      kind: 'tool_calls',
      calls: [{ tool: 'apply_patch', params: { unified_diff: gold }, id: ORACLE_REQUEST_ID }],
      message: `applying the gold patch ${path.join(taskDir, 'gold.patch')}`,
    });
    expect(await agent.nextAction(observed([{ result: { status: 'success' } }]))).toEqual({ kind: 'stop', reason: 'done', message: 'the gold patch is applied' });
  });

  it('gives up with the tool error when the patch does not apply', async () => {
    await writeFile(path.join(taskDir, 'gold.patch'), gold);
    const agent = await createOracleAgent({ task: { dir: taskDir } });
    await agent.nextAction(observed([]));
    const action = await agent.nextAction(observed([{ result: { status: 'error', error: { message: 'hunk 1 does not match w.py' } } }]));
    expect(action).toEqual({ kind: 'stop', reason: 'gave_up', message: 'the gold patch did not apply: hunk 1 does not match w.py' });
  });

  it('explains a task without a gold patch', async () => {
    const error = await createOracleAgent({ task: { dir: taskDir, task: { id: 'toy' } } }).catch((caught: unknown) => caught);
    expect(OracleAgentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`task toy has no gold patch: ${path.join(taskDir, 'gold.patch')} not found (tasks made by \`ab import-swebench\` have one)`);
  });
});

describe('createOracleAgentIfAny', () => {
  it('is null for a task folder without gold.patch and the oracle when it has one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oracle-if-any-'));
    try {
      expect(await createOracleAgentIfAny({ task: { dir } })).toBeNull();
      await writeFile(path.join(dir, 'gold.patch'), '--- a/x\n+++ b/x\n');
      expect((await createOracleAgentIfAny({ task: { dir } }))?.name).toBe('oracle');
      await writeFile(path.join(dir, 'gold.patch'), '  \n');
      await expect(createOracleAgentIfAny({ task: { dir } })).rejects.toThrow('is empty');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
