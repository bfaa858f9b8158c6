import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASSETTE_FORMAT, HARNESS_VERSION } from '@agentbench/schemas';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer } from '@agentbench/fake-llm-server';
import { closedPort } from '../../../test-support/closed-port.js';
import { runCli } from './run-cli.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';

/** An attempt folder as `ab run-agent` leaves it, with the cassette given. */
async function attemptFolder(root: string, cassette: string): Promise<string> {
  const runDir = path.join(root, 'agent_runs', 'toy', '01JAAAAAAAAAAAAAAAAAAAAAAA');
  await mkdir(runDir, { recursive: true });
  const now = new Date().toISOString();
  await writeFile(path.join(runDir, 'attempt.json'), JSON.stringify({
    schema_version: '0.1.0', run_id: '01JAAAAAAAAAAAAAAAAAAAAAAA', task_id: 'toy', suite: 'unit', timestamp_start: now, timestamp_end: now, duration_sec: 1,
    baseline_validation: { attempted: false, failed_as_expected: false }, result: { passed: true, exit_code: 0, failure_reason: null, stop_reason: 'SUCCESS' },
    artifact_paths: {}, variant: 'scripted', model: null, limits: { timeout_sec: 30 }, metrics: null,
  }));
  await writeFile(path.join(runDir, 'run.json'), JSON.stringify({
    run_id: '01JAAAAAAAAAAAAAAAAAAAAAAA', kind: 'agent', created_at: now, finished_at: now, harness_version: HARNESS_VERSION, suite: 'unit', task_ids: ['toy'],
    options: { task_file: path.join(root, 'task.yaml'), variant: 'scripted', skip_baseline: true, limits: {} }, status: 'completed', counts: null,
  }));
  await writeFile(path.join(runDir, 'cassette.jsonl'), cassette);
  return runDir;
}

const header = (taskId: string) => JSON.stringify({ type: 'header', format: CASSETTE_FORMAT, version: 1, created_at: new Date().toISOString(), harness_version: HARNESS_VERSION, task_id: taskId, scenario_id: null, repeat_index: 0, replay_of: null });

describe('ab proxy and ab replay from the command line (bad input: one or two lines, exit 1, no stack)', () => {
  const temporary = useTemporaryDirectory({ per: 'block', prefix: 'ab-cassette-commands-' });

  it('ab proxy --record with an upstream that refuses names the URL', async () => {
    const upstream = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runCli(['proxy', '--record', path.join(temporary.path, 'c.jsonl'), '--upstream', upstream]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: cannot reach the upstream ${upstream}: connection refused (ECONNREFUSED)\n`);
  });

  it('ab proxy needs exactly one of --record and --replay, and --upstream to record', async () => {
    expect((await runCli(['proxy'])).stderr).toContain('ab: give exactly one of --record FILE or --replay FILE');
    const run = await runCli(['proxy', '--record', path.join(temporary.path, 'c.jsonl')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('ab: --record needs --upstream URL');
  });

  it('ab proxy --replay of a truncated cassette names the file and the line', async () => {
    const file = path.join(temporary.path, 'truncated.jsonl');
    await writeFile(file, `${header('toy')}\n{"type":"exchange","role":"ag`);
    const run = await runCli(['proxy', '--replay', file]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: ${file}: line 2: cut short (the recording stopped mid-line); re-record the attempt or delete that line\n`);
  });

  it('ab replay of a truncated cassette, or of a cassette of another task, says so in one line', async () => {
    const truncated = await attemptFolder(path.join(temporary.path, 'a'), `${header('toy')}\n{"type":"exch`);
    let run = await runCli(['replay', truncated]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: ${path.join(truncated, 'cassette.jsonl')}: line 2: cut short (the recording stopped mid-line); re-record the attempt or delete that line\n`);
    const foreign = await attemptFolder(path.join(temporary.path, 'b'), `${header('other_task')}\n`);
    run = await runCli(['replay', foreign]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: ${path.join(foreign, 'cassette.jsonl')}: line 1: recorded for task "other_task", not "toy": this cassette belongs to another run\n`);
  });

  it('ab replay of a folder that is not an attempt says what it expected', async () => {
    const run = await runCli(['replay', temporary.path]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^ab: .*attempt\.json: not found: expected an agent attempt record \(is the folder an attempt folder, agent_runs\/<task>\/<id>\/\?\)\n$/);
  });

  it('ab proxy --record serves until stopped, then ab proxy --replay answers the same offline', async () => {
    const upstream = await startFakeLlmServer({ script: ['recorded answer'] });
    const file = path.join(temporary.path, 'session.jsonl');
    const ask = async (port: number) => {
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }] }),
      });
      return { status: response.status, text: await response.text() };
    };
    const serve = async (args: string[], port: number, whenReady: () => boolean) => {
      const running = runCli(['proxy', ...args, '--port', String(port)]);
      for (let tries = 0; tries < 200 && !whenReady(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      // Wait for the port, then send the one request.
      let answer: { status: number; text: string } | undefined;
      for (let tries = 0; tries < 200 && answer === undefined; tries += 1) {
        answer = await ask(port).catch(() => undefined);
        if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      process.emit('SIGTERM');
      return { answer, run: await running };
    };
    try {
      const recording = await serve(['--record', file, '--upstream', upstream.url], await closedPort(), () => existsSync(file));
      expect(recording.run.exitCode, recording.run.stderr).toBe(0);
      expect(recording.run.stdout).toMatch(/^model proxy recording to .+ from http:\/\/127\.0\.0\.1:\d+\/v1\nOPENAI_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1\n/);
      expect(recording.run.stdout).toContain('model proxy stopped: 1 exchange');
      expect((await readCassette(file)).exchanges).toHaveLength(1);
    } finally {
      await upstream.close();
    }
    const replaying = await serve(['--replay', file], await closedPort(), () => true);
    expect(replaying.answer?.status).toBe(200);
    expect(replaying.answer?.text).toContain('recorded answer');
    expect(replaying.run.exitCode).toBe(0);
  });
});
