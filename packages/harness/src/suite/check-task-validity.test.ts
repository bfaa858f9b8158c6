import path from 'node:path';
import type { Agent, AgentAction, Observation } from '@agentbench/agent-loop';
import { LocalSandbox } from '@agentbench/sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, harmlessPatch, type LoopFixture } from '../../../agent-loop/test/fixtures.js';
import { RepoCache } from '../git/repo-cache.js';
import { checkTaskValidity } from './check-task-validity.js';

const localSandbox = (spec: Parameters<typeof LocalSandbox.create>[0]) => LocalSandbox.create(spec, { isWarningSilenced: true });

/** A reference patch written for another version of status.txt: its context is not in the file. */
const STALE_PATCH = ['--- a/status.txt', '+++ b/status.txt', '@@ -1 +1 @@', '-half-broken', '+fixed', ''].join('\n');

/** Applies one patch, then stops as the swebench oracle does: `gave_up` when apply_patch refused it, `done` otherwise. */
function patchingAgent(patch: string): Agent {
  let hasApplied = false;
  return {
    name: 'reference',
    async nextAction(observation: Observation): Promise<AgentAction> {
      if (!hasApplied) {
        hasApplied = true;
        return { kind: 'tool_calls', calls: [{ tool: 'apply_patch', params: { unified_diff: patch }, id: 'reference-patch' }] };
      }
      const refused = observation.lastResults.find((entry) => entry.result.status === 'error');
      return refused === undefined ? { kind: 'stop', reason: 'done' } : { kind: 'stop', reason: 'gave_up', message: refused.result.error?.message ?? 'refused' };
    },
  };
}

let fixture: LoopFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

async function validityWith(patch: string) {
  fixture = await createLoopFixture();
  return checkTaskValidity(fixture.task, {
    runs: 1,
    runDir: path.join(fixture.root, 'run'),
    runId: 'validity-test',
    referenceAgentFor: async () => patchingAgent(patch),
    mirrors: [],
    cache: new RepoCache(),
    createSandbox: localSandbox,
  });
}

// A baseline and an oracle attempt (setup, agent, final test) per case, on the local backend.
describe('checkTaskValidity (local sandbox)', { timeout: 240_000 }, () => {
  it('reports a reference patch that applies but fixes nothing with the final test reason', async () => {
    const validity = await validityWith(harmlessPatch(1));
    expect(validity).toMatchObject({ verdict: 'oracle_fails', oracle_passes: 0, oracle_runs: 1, baseline_failures: 1, reasons: ['oracle 1: TESTS_FAILED'] });
  });

  it('reports a reference patch that does not apply as oracle_does_not_apply, naming the refused hunk', async () => {
    const validity = await validityWith(STALE_PATCH);
    expect(validity).toMatchObject({ verdict: 'oracle_does_not_apply', oracle_passes: 0, oracle_runs: 1, baseline_failures: 1 });
    expect(validity.reasons).toHaveLength(1);
    expect(validity.reasons[0]).toMatch(/^oracle 1: the reference patch did not apply \(the agent gave up: hunk 1 of 1 for status\.txt/);
    expect(validity.message).toBe("oracle passed 0/1 (did not apply 1/1), baseline failed 1/1: the reference patch does not apply to the task's commit after setup");
  });
});
