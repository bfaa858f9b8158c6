import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { runCli } from './run-cli.js';
import { scriptedPatchOf, toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const toyTask = toyTaskFile('toy_fail_pytest');
const editedPromptAgent = path.join(repositoryRoot, 'packages/harness/test/fixtures/edited-prompt-agent.mjs');
const skipReason = dockerSkipReason('replay.docker.test.ts');

interface Printed {
  run_dir: string;
  record: { run_id: string; result: Record<string, unknown> };
}

// Three Docker attempts, each with setup and a final test: minutes on a loaded machine.
describe.skipIf(skipReason !== undefined)('ab run-agent records, ab replay replays offline (real Docker, fake LLM server)', { timeout: 600_000 }, () => {
  const scratch = useDockerScratch();
  let recordedDir = '';

  it('records every model exchange of an LLM-agent attempt, a 429 included', async () => {
    const patch = await scriptedPatchOf(toyTask);
    const server = await startFakeLlmServer({
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }] },
        { status: 429, headers: { 'Retry-After': '0' } },
        { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }] },
      ],
    });
    const restoreEnvironment = applyEnvironment({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
    try {
      const run = await runCli(['run-agent', '--task', toyTask, '--variant', 'llm', '--model', 'fake-model', '--skip-baseline', '--no-log-llm-messages', '--out', scratch.path, '--json']);
      expect(run.exitCode, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout) as Printed;
      scratch.runIds.push(printed.record.run_id);
      recordedDir = printed.run_dir;
      expect(printed.record.result).toMatchObject({ passed: true, stop_reason: 'SUCCESS' });
    } finally {
      restoreEnvironment();
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
    scratch.runIds.push(path.basename(printed.run_dir));
    expect(printed.divergence).toBeNull();
    expect(printed.comparison).toMatchObject({ isSame: true, verdict: { original: 'PASSED', replay: 'PASSED' }, toolCalls: { original: 2, replay: 2 } });
    expect(JSON.parse(await readFile(path.join(printed.run_dir, 'replay.json'), 'utf8'))).toMatchObject({ mode: 'replay', replay_of: { run_dir: recordedDir } });
  });

  it('a changed system prompt makes ab replay report the divergence at step 1 and exit 1', async () => {
    expect(recordedDir).not.toBe('');
    const run = await runCli(['replay', recordedDir, '--variant', editedPromptAgent]);
    const replayDir = /^replay: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    if (replayDir !== '') scratch.runIds.push(path.basename(replayDir));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout).toContain('replay diverged at agent step 1 (/chat/completions): the cassette holds no such request');
    expect(run.stdout).toContain('+body.messages[0].content: "You are a careful engineer.');
    expect(run.stdout).toMatch(/verdict: PASSED → FAILED/);
  });
});
