import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runAgentAttempt } from '../src/index.js';
import { useToyTaskScratch } from './helpers/use-toy-task-scratch.js';

const IMAGE = 'agentbench/py-runner:0.1.0';

const skipReason = dockerSkipReason('agent-attempt.docker.test.ts', IMAGE);

describe.skipIf(skipReason !== undefined)('agent attempts on toy_fail_pytest in real Docker', () => {
  const context = useToyTaskScratch('agent-loop-docker-');

  it('the scripted agent fixes the toy task: the AttemptRecord passes and the patch artifact is kept', async () => {
    const { runDir, record } = await runAgentAttempt({ task: context.toy, skipBaseline: true, variant: 'scripted', outDir: path.join(context.scratch, 'scripted') });
    context.runIds.push(record.run_id);
    expect(record.result).toMatchObject({ passed: true, exit_code: 0, failure_reason: null, stop_reason: 'SUCCESS' });
    expect(record.metrics).toMatchObject({ steps: 4 });
    // Setup ran once: the verdict's sandbox started from the attempt's post-setup snapshot, whose image is gone.
    expect(record.verdict_setup).toBe('snapshot');
    expect(execFileSync('docker', ['images', '--quiet', '--filter', `label=dev.agentbench.run-id=${record.run_id}`], { encoding: 'utf8' }).trim()).toBe('');
    expect(existsSync(path.join(runDir, 'diffs', 'step_0004.patch'))).toBe(true);
    const fixed = await readFile(path.join(runDir, 'workspace', 'repo', 'src', 'toy_calc', 'stats.py'), 'utf8');
    expect(fixed).toContain('ordered = sorted(values)');
    const events = (await readFile(path.join(runDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { event_type: string; payload: Record<string, unknown> });
    expect(events.filter((event) => event.event_type === 'tests_finished').map((event) => event.payload['exit_code'])).toEqual([1, 0]);
  });

  it('the LLM agent fixes it too through real HTTP to the fake server, with the token counts of its replies', async () => {
    const patch = context.toy.agentScript?.find((step) => step.tool === 'apply_patch')?.args['unified_diff'];
    expect(typeof patch).toBe('string');
    let server: FakeLlmServer | undefined;
    try {
      server = await startFakeLlmServer({
        script: [
          { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }], usage: { prompt_tokens: 1500, completion_tokens: 30 } },
          { text: 'median() must sort and average the middle pair.', toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch as string } }], usage: { prompt_tokens: 2100, completion_tokens: 180 } },
        ],
      });
      const { runDir, record } = await runAgentAttempt({
        task: context.toy,
        skipBaseline: true,
        variant: 'llm',
        environment: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', MODEL_NAME: 'fake-model' },
        outDir: path.join(context.scratch, 'llm'),
      });
      context.runIds.push(record.run_id);
      expect(record.result).toMatchObject({ passed: true, failure_reason: null, stop_reason: 'SUCCESS' });
      expect(record.metrics).toMatchObject({ steps: 2, input_tokens: 3600, output_tokens: 210 });
      expect(record.model).toMatchObject({ provider: 'openai-compatible', name: 'fake-model' });
      expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      // The second request shows the model what read_file returned from inside the container.
      const secondPrompt = JSON.stringify(server.requests[1]?.body);
      expect(secondPrompt).toContain('def median(values)');
      expect(existsSync(path.join(runDir, 'llm_messages.jsonl'))).toBe(true);
      expect(record.artifact_paths['llm_messages']).toBe('llm_messages.jsonl');
    } finally {
      await server?.close();
    }
  });
});
