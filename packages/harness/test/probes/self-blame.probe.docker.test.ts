import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers } from '@agentbench/sandbox';
import { loadTask, type AttemptRecord, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentRun, sandboxFactoryFor } from '../../src/index.js';
import { probeSkipReason } from './trust-boundary-probes.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const TOY_TASK = path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml');

/** An agent module (`ab run --variant <file>`) whose first action throws an error declaring `errorKind`. */
function agentModule(errorKind: string): string {
  return `export default () => ({
  name: 'self-blame-${errorKind}',
  async nextAction() {
    throw Object.assign(new Error('not my fault (${errorKind})'), { errorKind: '${errorKind}' });
  },
});
`;
}

/**
 * An agent that raises an interrupt itself, or declares an LLM failure without the endpoint
 * failing, must not pass its failure off as infrastructure: `ab run --retries 1` (runAgentRun, as
 * the CLI calls it) runs it once, records class `agent`, counts it, and leaves no container.
 * Before the fix the interrupt was INTERRUPTED/infra and never final: the run retried it forever.
 */
const skip = probeSkipReason('docker', 'self-blame.probe.docker.test.ts');
describe.skipIf(skip !== undefined)('an agent that blames the harness fails as the agent (docker)', () => {
  let scratch = '';
  let toy: LoadedTask;
  const runIds: string[] = [];
  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'self-blame-'));
    const loaded = await loadTask(TOY_TASK);
    // Setup's pip install can pass 60 s on a loaded machine; the probe is about the agent, not setup.
    toy = { ...loaded, task: { ...loaded.task, environment: { ...loaded.task.environment, timeout_sec: 300 } } };
  });
  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it.each([
    ['interrupt', 'AGENT_GAVE_UP', /AGENT_GAVE_UP is the agent's/],
    ['llm', 'LLM_ERROR', /the LLM endpoint did not fail/],
  ])('errorKind %s: one try, failure_class agent, counted', async (errorKind, reason, cause) => {
    const variant = path.join(scratch, `${errorKind}-agent.mjs`);
    await writeFile(variant, agentModule(errorKind));
    const outDir = path.join(scratch, `run-${errorKind}`);
    // A loop would start a third try: stop the run there, so the test fails instead of hanging.
    const controller = new AbortController();
    let tries = 0;
    const run = await runAgentRun({
      tasks: [toy],
      variant,
      retries: 1,
      retryBackoffMs: 0,
      concurrency: 1,
      mirrors: [],
      outDir,
      createSandbox: sandboxFactoryFor('docker'),
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type !== 'try-started') return;
        tries += 1;
        if (tries > 2) controller.abort();
      },
    });
    const records = (await readFile(path.join(outDir, 'attempts.jsonl'), 'utf8')).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as AttemptRecord);
    runIds.push(...records.map((record) => record.run_id));
    expect(tries).toBe(1);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ try: 1, errored: false, failure_class: 'agent', result: { passed: false, failure_reason: reason } });
    expect(records[0]?.failure_cause).toMatch(cause);
    expect(records[0]?.result.stop_reason).toBe(reason);
    expect(run.progress).toMatchObject({ done: 1, failed: 1, errored: 0, retried: 0 });
  }, 600_000);
});
