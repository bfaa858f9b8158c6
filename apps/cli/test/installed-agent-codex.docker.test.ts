// Codex CLI for real (installed from npm by this file's own setup), run by `ab` on the toy task in
// a `--network none` Docker sandbox, its model requests going through the attempt's gateway to
// @agentbench/fake-llm-server, which scripts it. Few attempts, one install, one scratch folder:
//   1. `ab run --agent codex --retries 1`: try 1 loses its upstream mid-attempt (infra, retried),
//      try 2 fixes the task (PASSED, the verdict from its diff);
//   2. `ab run-agent --agent codex --max-steps 1`: the agent rewrites the tests in its one request,
//      the second is refused by the gateway (MAX_STEPS, the agent's failure) and the verdict is TESTS_TAMPERED;
//   3. `ab replay` of the PASSED try with the fake server closed: the same verdict, offline.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '@agentbench/fake-llm-server';
import { applyEnvironment } from '@agentbench/scenario-runner';
import type { AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('installed-agent-codex.docker.test.ts');
const WORKDIR = '/workspace/repo';
const FIX = [
  "python3 - <<'PY'",
  'import pathlib',
  "path = pathlib.Path('src/toy_calc/stats.py')",
  'text = path.read_text()',
  'old = "    middle = len(values) // 2\\n    return values[middle]\\n"',
  'new = "    ordered = sorted(values)\\n    middle = len(ordered) // 2\\n    if len(ordered) % 2 == 1:\\n        return ordered[middle]\\n    return (ordered[middle - 1] + ordered[middle]) / 2\\n"',
  'assert old in text',
  'path.write_text(text.replace(old, new))',
  'PY',
].join('\n');
const TAMPER = "printf 'def test_everything():\\n    assert True\\n' > tests/test_stats.py";

interface RequestBody {
  tools?: Array<{ name?: string; type?: string }>;
  input?: Array<{ type?: string }>;
}

/** Codex's shell tool as the request offers it: its name and arguments changed across versions. */
function shell(request: RecordedRequest, command: string): FakeReply {
  const names = ((request.body as RequestBody).tools ?? []).map((tool) => tool.name);
  if (names.includes('shell_command')) return { toolCalls: [{ name: 'shell_command', arguments: { command, workdir: WORKDIR } }] };
  if (names.includes('exec_command')) return { toolCalls: [{ name: 'exec_command', arguments: { cmd: command, workdir: WORKDIR } }] };
  return { toolCalls: [{ name: 'shell', arguments: { command: ['bash', '-lc', command], workdir: WORKDIR } }] };
}

/** The first request of a codex session carries no tool output yet: a new try of the attempt has started. */
function isFirstOfSession(request: RecordedRequest): boolean {
  return !((request.body as RequestBody).input ?? []).some((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output');
}

async function attemptsOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AttemptRecord);
}

describe.skipIf(skipReason !== undefined)('codex installed from npm, run by ab through the attempt gateway (real Docker, fake LLM server)', { timeout: 900_000 }, () => {
  const scratch = useDockerScratch();
  let taskFile = '';
  let server: FakeLlmServer;
  let restoreEnvironment: () => void = () => undefined;
  let phase: 'run' | 'tamper' = 'run';
  let sessions = 0;
  let passedTryDir = '';

  beforeAll(async () => {
    // CI is a fresh machine: the agent is installed here (npm once; reused from the default cache after).
    const installed = await runCli(['agents', 'install', 'codex']);
    expect(installed.exitCode, installed.stderr).toBe(0);
    taskFile = await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(scratch.path, 'tasks/custom-dev/toy_fail_pytest'), timeoutSec: 300 });
    server = await startFakeLlmServer({
      script: (request) => {
        if (request.path !== '/v1/responses') return undefined;
        const isFirst = isFirstOfSession(request);
        if (phase === 'tamper') return isFirst ? shell(request, TAMPER) : 'The tests pass now.';
        if (isFirst) sessions += 1;
        if (sessions === 1) return isFirst ? shell(request, 'cat src/toy_calc/stats.py') : { fault: 'drop_connection' };
        return isFirst ? shell(request, FIX) : 'Fixed: median sorts its input and averages the two middle values.';
      },
    });
    restoreEnvironment = applyEnvironment({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-installed-agent-test' });
  }, 900_000);
  afterAll(async () => {
    restoreEnvironment();
    await server?.close();
  });

  it('ab run: the upstream stops mid-attempt (infrastructure failure, retried), the next try fixes the task: PASSED from its diff', async () => {
    const out = path.join(scratch.path, 'run');
    const run = await runCli(['run', '--agent', 'codex', '--task', taskFile, '--models', 'fake-model', '--retries', '1', '--out', out, '--json']);
    const records = await attemptsOf(out);
    scratch.runIds.push(...records.map((record) => record.run_id));
    expect(run.exitCode, `${run.stderr}\n${JSON.stringify(records, null, 2)}`).toBe(0);
    expect(records).toHaveLength(2);
    const [lost, passed] = records as [AttemptRecord, AttemptRecord];
    expect(lost).toMatchObject({ variant: 'codex@0.171.0', failure_class: 'infra', result: { passed: false, failure_reason: 'LLM_ERROR', stop_reason: 'LLM_ERROR' } });
    expect(passed).toMatchObject({ variant: 'codex@0.171.0', result: { passed: true, failure_reason: null }, model: { name: 'fake-model', prompt_version: expect.stringMatching(/^instruction_v1@[0-9a-f]{12}$/) } });
    expect(passed.result.verdict_basis).toBeDefined();
    expect(passed.metrics?.steps).toBe(2);
    // The verdict came from the diff the agent left: the fix is in it.
    const tryDirs = (await readdir(path.join(out, 'fake-model/agent_runs/toy_fail_pytest'))).sort();
    passedTryDir = path.join(out, 'fake-model/agent_runs/toy_fail_pytest', tryDirs[tryDirs.length - 1] ?? '');
    const agentPatch = await readFile(path.join(out, passed.artifact_paths['agent_patch'] ?? ''), 'utf8');
    expect(agentPatch).toContain('+    ordered = sorted(values)');
    const cassette = await readCassette(path.join(passedTryDir, 'cassette.jsonl'));
    expect(cassette.exchanges.map((exchange) => exchange.endpoint)).toEqual(['/responses', '/responses']);
  });

  it('ab run-agent with a budget of 1 request: the agent rewrote the tests, its second request was refused: MAX_STEPS, the agent\'s failure, TESTS_TAMPERED', async () => {
    phase = 'tamper';
    const run = await runCli(['run-agent', '--agent', 'codex', '--model', 'fake-model', '--task', taskFile, '--skip-baseline', '--max-steps', '1', '--out', path.join(scratch.path, 'tamper'), '--json']);
    const printed = JSON.parse(run.stdout) as { run_dir: string; record: AttemptRecord };
    scratch.runIds.push(printed.record.run_id);
    expect(printed.record, run.stderr).toMatchObject({ failure_class: 'agent', result: { passed: false, failure_reason: 'TESTS_TAMPERED', stop_reason: 'MAX_STEPS', tampered_paths: ['tests/test_stats.py'] } });
    expect(printed.record.metrics?.steps).toBe(1);
    const cassette = await readFile(path.join(printed.run_dir, 'cassette.jsonl'), 'utf8');
    expect(cassette).toContain('"budget_stop"');
    expect(run.exitCode).not.toBe(0);
  });

  it('ab replay of the PASSED try with the upstream gone: the same verdict, offline', async () => {
    expect(passedTryDir).not.toBe('');
    await server.close();
    const run = await runCli(['replay', passedTryDir, '--json']);
    const printed = JSON.parse(run.stdout) as { run_dir: string; divergence: unknown; comparison: Record<string, unknown> };
    scratch.runIds.push(((await attemptsOf(printed.run_dir))[0] as AttemptRecord).run_id);
    expect(printed.divergence, run.stderr).toBeNull();
    expect(printed.comparison).toMatchObject({ verdict: { original: 'PASSED', replay: 'PASSED' } });
    expect(run.exitCode).toBe(0);
  });
});
