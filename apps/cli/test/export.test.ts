import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atifProblems, mergeGatewayTurns, parseAgentStream, trajectoryEvents } from '@agentbench/trajectories';
import { cassetteFixture, streamFixture } from '../../../packages/trajectories/test/fixture-streams.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';

let scratch: TemporaryDirectory;
beforeEach(async () => {
  scratch = await createTemporaryDirectory();
});
afterEach(async () => {
  await scratch.remove();
});

/** An installed agent's attempt folder as its runner writes it: events.jsonl from the agent's stream and the gateway's cassette. */
async function installedAgentFolder(): Promise<string> {
  const folder = path.join(scratch.path, 'claude-attempt');
  await mkdir(folder);
  const trajectory = mergeGatewayTurns(parseAgentStream('claude-stream-json', streamFixture('claude'), { workspace: '/workspace' }), cassetteFixture('claude'));
  const events = trajectoryEvents(trajectory, { runId: '01JCLAUDE', at: '2026-11-27T18:00:00.000Z', taskId: 'toy_capture', variant: 'claude-code', agentVersion: '2.1.332' });
  await writeFile(path.join(folder, 'events.jsonl'), events.map((event) => JSON.stringify(event)).join('\n') + '\n');
  await copyFile(fileURLToPath(new URL('../../../packages/trajectories/test/fixtures/streams/claude.cassette.jsonl', import.meta.url)), path.join(folder, 'cassette.jsonl'));
  return folder;
}

describe('ab export --format atif', () => {
  it("writes an installed agent's attempt as valid ATIF, named by the agent and its version", async () => {
    const folder = await installedAgentFolder();
    const out = path.join(scratch.path, 'trajectory.json');
    const run = await runCli(['export', '--format', 'atif', folder, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const atif = JSON.parse(await readFile(out, 'utf8')) as Record<string, any>;
    expect(atifProblems(atif)).toEqual([]);
    expect(atif).toMatchObject({ schema_version: 'ATIF-v1.6', session_id: '01JCLAUDE', agent: { name: 'claude-code', version: '2.1.332', model_name: 'fake-model', extra: { stream_format: 'claude-stream-json' } } });
    // The instruction comes from the gateway's first recorded request.
    expect(atif.steps[0]).toEqual({ step_id: 1, source: 'user', message: 'Fix the bug in calc.py so that add returns the sum.' });
    expect(atif.steps.map((step: any) => step.tool_calls?.[0]?.function_name ?? null)).toEqual([null, 'Bash', 'Write', 'Bash', null]);
    expect(atif.steps[2].extra).toEqual({ files_changed: ['calc.py'] });
    expect(atif.final_metrics).toEqual({ total_prompt_tokens: 10594, total_completion_tokens: 28, total_steps: 5 });
    expect(atif.extra).toMatchObject({ task_id: 'toy_capture' });
    expect(await readdir(scratch.path)).toEqual(['claude-attempt', 'trajectory.json']);
  });

  it('prints to standard output without --out', async () => {
    const run = await runCli(['export', '--format', 'atif', await installedAgentFolder()]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ schema_version: 'ATIF-v1.6' });
  });

  it('explains a folder without events, a broken event line and a symlinked events file, in one line each, writing nothing', async () => {
    const out = path.join(scratch.path, 'out.json');
    const empty = path.join(scratch.path, 'empty');
    await mkdir(empty);
    const none = await runCli(['export', '--format', 'atif', empty, '--out', out]);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain(`${empty}: no events.jsonl: only an agent attempt's folder has a trajectory`);

    const folder = await installedAgentFolder();
    await writeFile(path.join(folder, 'events.jsonl'), '{"event_type":"run_started","timestamp":"2026-11-27T18:00:00.000Z","run_id":"r","step":null,"payload":{"task_id":"t"}}\n{"event_type":"tool_call_started","timestamp":"2026-11-27T18:00:00.000Z","run_id":"r","step":1,"payload":{"request_id":"x","tool":"rm -rf"}}\n');
    const broken = await runCli(['export', '--format', 'atif', folder, '--out', out]);
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr.trim()).toMatch(new RegExp(`^ab: ${path.join(folder, 'events.jsonl').replaceAll('/', '\\/')}: line 2: not a valid event: payload\\.tool: `));

    const linked = path.join(scratch.path, 'linked');
    await mkdir(linked);
    await symlink(path.join(folder, 'events.jsonl'), path.join(linked, 'events.jsonl'));
    const symlinked = await runCli(['export', '--format', 'atif', linked, '--out', out]);
    expect(symlinked.exitCode).toBe(1);
    expect(symlinked.stderr).toContain('events.jsonl: expected a regular file (a symlink or folder is not read)');
    expect((await readdir(scratch.path)).sort()).toEqual(['claude-attempt', 'empty', 'linked']);
  });

  it('refuses a format it does not write', async () => {
    const run = await runCli(['export', '--format', 'otel', await installedAgentFolder()]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/Invalid values:[\s\S]*format/);
  });
});
