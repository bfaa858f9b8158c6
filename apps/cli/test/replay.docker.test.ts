import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { listManagedContainers } from '@agentbench/sandbox';
import { loadTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const toyTask = path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml');
const editedPromptAgent = path.join(repoRoot, 'packages/harness/test/fixtures/edited-prompt-agent.mjs');
const skipReason = dockerSkipReason('replay.docker.test.ts');

interface Printed {
  run_dir: string;
  record: { run_id: string; result: Record<string, unknown> };
}

// Three Docker attempts, each with setup and a final test: minutes on a loaded machine.
describe.skipIf(skipReason !== undefined)('ab run-agent records, ab replay replays offline (real Docker, fake LLM server)', { timeout: 600_000 }, () => {
  let scratch: string;
  let recordedDir = '';
  const runIds: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-replay-docker-'));
  });

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it('records every model exchange of an LLM-agent attempt, a 429 included', async () => {
    const loaded = await loadTask(toyTask);
    const patch = loaded.agentScript?.find((step) => step.tool === 'apply_patch')?.args['unified_diff'] as string;
    const server = await startFakeLlmServer({
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }] },
        { status: 429, headers: { 'Retry-After': '0' } },
        { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }] },
      ],
    });
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
      const run = await runCli(['run-agent', '--task', toyTask, '--variant', 'llm', '--model', 'fake-model', '--skip-baseline', '--no-log-llm-messages', '--out', scratch, '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout) as Printed;
      runIds.push(printed.record.run_id);
      recordedDir = printed.run_dir;
      expect(printed.record.result).toMatchObject({ passed: true, stop_reason: 'SUCCESS' });
    } finally {
      process.env = saved;
      await server.close();
    }
    const cassette = await readCassette(path.join(recordedDir, 'cassette.jsonl'));
    expect(cassette.header).toMatchObject({ task_id: 'toy_fail_pytest', repeat_index: 0 });
    expect(cassette.exchanges.map((exchange) => exchange.response.status)).toEqual([200, 429, 200]);
  });

  it('ab replay with the server stopped: the same verdict and the same tool calls, exit 0', async () => {
    expect(recordedDir).not.toBe('');
    const run = await runCli(['replay', recordedDir, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { run_dir: string; divergence: unknown; comparison: Record<string, unknown> };
    runIds.push(path.basename(printed.run_dir));
    expect(printed.divergence).toBeNull();
    expect(printed.comparison).toMatchObject({ isSame: true, verdict: { original: 'PASSED', replay: 'PASSED' }, toolCalls: { original: 2, replay: 2 } });
    expect(JSON.parse(await readFile(path.join(printed.run_dir, 'replay.json'), 'utf8'))).toMatchObject({ mode: 'replay', replay_of: { run_dir: recordedDir } });
  });

  it('a changed system prompt makes ab replay report the divergence at step 1 and exit 1', async () => {
    expect(recordedDir).not.toBe('');
    const run = await runCli(['replay', recordedDir, '--variant', editedPromptAgent]);
    const replayDir = /^replay: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    if (replayDir !== '') runIds.push(path.basename(replayDir));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout).toContain('replay diverged at agent step 1 (/chat/completions): the cassette holds no such request');
    expect(run.stdout).toContain('+body.messages[0].content: "You are a careful engineer.');
    expect(run.stdout).toMatch(/verdict: PASSED → FAILED/);
  });
});
