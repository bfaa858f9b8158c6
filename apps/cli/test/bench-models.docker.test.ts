import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { requestedModel, startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { scriptedPatchOf, toyTaskFile } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const toyTask = toyTaskFile('toy_fail_pytest');

const skip = dockerSkipReason('bench-models.docker.test.ts');

async function attemptRunIds(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true }).catch(() => [] as string[]);
  const files = entries.filter((entry) => entry.endsWith(`${path.sep}attempt.json`) && entry.includes('agent_runs'));
  return Promise.all(files.map(async (file) => (JSON.parse(await readFile(path.join(folder, file), 'utf8')) as { run_id: string }).run_id));
}

describe.skipIf(skip !== undefined)('ab bench-models against the fake server in real Docker', () => {
  const scratch = useDockerScratch();
  let server: FakeLlmServer;
  let restoreEnvironment: (() => void) | undefined;

  beforeAll(async () => {
    const patch = await scriptedPatchOf(toyTask);
    server = await startFakeLlmServer({
      script: (request) => {
        const model = requestedModel(request) ?? '';
        const isProbe = (other: { body: unknown }): boolean => JSON.stringify(other.body).includes('Reply with the single word OK.');
        if (model.startsWith('fake/') && model !== 'fake/missing' && isProbe(request)) return { text: 'OK', usage: { prompt_tokens: 8, completion_tokens: 1 } };
        // One attempt per model: its earlier requests (not the probe) tell which step this is.
        const earlier = server.requests.filter((other) => other.index < request.index && requestedModel(other) === model && !isProbe(other)).length;
        if (model === 'fake/fixer') {
          return earlier > 0
            ? { toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }], usage: { prompt_tokens: 2000, completion_tokens: 150 } }
            : { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }], usage: { prompt_tokens: 1200, completion_tokens: 20 } };
        }
        if (model === 'fake/wanderer') return { toolCalls: [{ name: 'list_files', arguments: { root: '.' } }], usage: { prompt_tokens: 900, completion_tokens: 10 } };
        // Any other model does not exist: the probe must drop it.
        return { status: 404, body: { error: { message: `model ${model} not found`, type: 'invalid_request_error', code: 'model_not_found' } } };
      },
    });
    restoreEnvironment = applyEnvironment({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
  });

  // Runs before useDockerScratch's own afterAll (vitest runs afterAll hooks last-registered first), which checks these runs.
  afterAll(async () => {
    restoreEnvironment?.();
    await server?.close();
    scratch.runIds.push(...(await attemptRunIds(path.join(scratch.path, 'bench'))));
  });

  it('probes three models, drops the one that does not answer, runs the others and prints the table and JSON', async () => {
    const out = path.join(scratch.path, 'bench');
    const run = await runCli(['bench-models', '--task', toyTask, '--models', 'fake/fixer,fake/wanderer,fake/missing', '--probe', '-j', '2', '--max-steps', '2', '--out', out]);
    expect(run.stderr).toContain('probe fake/missing: no answer, dropped');
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^model\s+attempts\s+errored\s+pass rate \(95% CI\)\s+pass@1\s+steps\s+tokens\s+cost\s+time\s+failures$/);
    expect(lines.find((line) => line.startsWith('fake/fixer'))).toMatch(/^fake\/fixer\s+1\s+0\s+100% \(21%–100%\)\s+100%\s+2\s+3370\s+–\s+[\d.]+ s\s+-$/);
    expect(lines.find((line) => line.startsWith('fake/wanderer'))).toMatch(/^fake\/wanderer\s+1\s+0\s+0% \(0%–79%\)\s+0%\s+2\s+\d+\s+–\s+[\d.]+ s\s+AGENT_GAVE_UP 1$/);
    expect(run.stdout).toContain('dropped fake/missing: the probe got no answer');

    const summary = JSON.parse(await readFile(path.join(out, 'bench-summary.json'), 'utf8')) as { models: Array<Record<string, unknown>> };
    expect(summary.models.map((model) => [model.model, model.attempts, model.pass_rate, model.dropped])).toEqual([
      ['fake/fixer', 1, 1, false],
      ['fake/wanderer', 1, 0, false],
      ['fake/missing', 0, null, true],
    ]);
    // The run folder of `ab run`: its plan and every try beside the per-model folders.
    expect((await readdir(out)).sort()).toEqual(['attempts.jsonl', 'bench-summary.json', 'fake__fixer', 'fake__wanderer', 'run.json']);
  }, 600_000);
});
