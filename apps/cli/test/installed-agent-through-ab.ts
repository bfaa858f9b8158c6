// A real CLI agent (installed from npm by the test file's own setup), run by `ab` on the toy task in
// a `--network none` Docker sandbox, its model requests going through the attempt's gateway to
// @agentbench/fake-llm-server, which scripts it in the agent's own tools. One install, one scratch
// folder, few attempts (each agent's test file calls this once):
//   1. `ab run --agent NAME --retries 1 --max-steps 3`: try 1 fixes the task in its first request,
//      then loses its upstream (infra, retried; no verdict is taken from the fixed diff it left; the
//      agent's own retries of the dead upstream end at the budget, not minutes later, and the
//      upstream, not the budget, is the reason), try 2 fixes the task (PASSED, the verdict from its diff);
//   2. `ab run-agent --agent ./NAME.yaml --instruction-template FILE --max-steps 1` (a copy of the
//      shipped definition, a template of the test's): the agent rewrites the tests in its one request,
//      the next is refused by the gateway (MAX_STEPS, the agent's failure) and the verdict is TESTS_TAMPERED;
//   3. `ab replay` of the PASSED try with the fake server closed: the same verdict, offline.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readCassette } from '@agentbench/cassette';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '@agentbench/fake-llm-server';
import { findAgentDefinition } from '@agentbench/installed-agents';
import { applyEnvironment } from '@agentbench/scenario-runner';
import type { AgentEvent, AttemptRecord } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

/** How the fake server plays the model for one agent: its wire API, its tools, how its upstream stops. */
export interface ScriptedInstalledAgent {
  /** The shipped definition's name: `codex`, `claude-code`. */
  name: string;
  /** The upstream variables `ab` reads for the agent's wire API, pointing at the fake server. */
  upstreamEnvironment: (server: FakeLlmServer) => Record<string, string>;
  /** The agent's turn requests (its side requests, such as titles, carry no tools: the script answers them plainly). */
  isTurn: (request: RecordedRequest) => boolean;
  /** The first turn of a session carries no tool output yet: a new try of the attempt has started. */
  isFirstOfSession: (request: RecordedRequest) => boolean;
  /** A reply that runs a shell command in the repository with the agent's own tool. */
  shell: (request: RecordedRequest, command: string) => FakeReply;
  /** The upstream stopping mid-attempt, as this agent meets it (an agent that retries it for minutes is told not to). */
  outage: FakeReply;
}

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

async function attemptsOf(runDir: string): Promise<AttemptRecord[]> {
  const text = await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AttemptRecord);
}

async function lastEventOf(attemptDir: string): Promise<AgentEvent | undefined> {
  const lines = (await readFile(path.join(attemptDir, 'events.jsonl'), 'utf8')).trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? 'null') as AgentEvent | undefined;
}

export function describeInstalledAgentThroughAb(agent: ScriptedInstalledAgent, testFile: string): void {
  const skipReason = dockerSkipReason(testFile);
  describe.skipIf(skipReason !== undefined)(`${agent.name} installed from npm, run by ab through the attempt gateway (real Docker, fake LLM server)`, { timeout: 900_000 }, () => {
    const scratch = useDockerScratch();
    let taskFile = '';
    let variant = '';
    let definitionFile = '';
    let server: FakeLlmServer;
    let restoreEnvironment: () => void = () => undefined;
    let phase: 'run' | 'tamper' = 'run';
    let sessions = 0;
    let passedTryDir = '';

    beforeAll(async () => {
      // CI is a fresh machine: the agent is installed here (npm once; reused from the default cache after).
      const installed = await runCli(['agents', 'install', agent.name]);
      expect(installed.exitCode, installed.stderr).toBe(0);
      const definition = await findAgentDefinition(agent.name);
      variant = `${definition.name}@${definition.version ?? ''}`;
      definitionFile = definition.file;
      taskFile = await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(scratch.path, 'tasks/custom-dev/toy_fail_pytest'), timeoutSec: 300 });
      server = await startFakeLlmServer({
        script: (request) => {
          if (!agent.isTurn(request)) return 'ok';
          const isFirst = agent.isFirstOfSession(request);
          if (phase === 'tamper') return isFirst ? agent.shell(request, TAMPER) : 'The tests pass now.';
          if (isFirst) sessions += 1;
          // Both tries fix the task in their first turn; the first then loses its upstream.
          if (isFirst) return agent.shell(request, FIX);
          return sessions === 1 ? agent.outage : 'Fixed: median sorts its input and averages the two middle values.';
        },
      });
      restoreEnvironment = applyEnvironment(agent.upstreamEnvironment(server));
    }, 900_000);
    afterAll(async () => {
      restoreEnvironment();
      await server?.close();
    });

    it('ab run: the upstream stops mid-attempt (infrastructure failure, retried, no verdict from the fixed diff it left), the next try fixes the task: PASSED from its diff', async () => {
      const out = path.join(scratch.path, 'run');
      const run = await runCli(['run', '--agent', agent.name, '--task', taskFile, '--models', 'fake-model', '--retries', '1', '--max-steps', '3', '--out', out, '--json']);
      const records = await attemptsOf(out);
      scratch.runIds.push(...records.map((record) => record.run_id));
      expect(run.exitCode, `${run.stderr}\n${JSON.stringify(records, null, 2)}`).toBe(0);
      expect(records).toHaveLength(2);
      const [lost, passed] = records as [AttemptRecord, AttemptRecord];
      // The lost try's diff held the whole fix: a verdict taken from it would have passed.
      expect(lost).toMatchObject({ variant, failure_class: 'infra', result: { passed: false, failure_reason: 'LLM_ERROR', stop_reason: 'LLM_ERROR' } });
      expect(lost.result.verdict_basis ?? null).toBeNull();
      expect(lost.artifact_paths['agent_patch']).toBeUndefined();
      expect(passed).toMatchObject({ variant, result: { passed: true, failure_reason: null }, model: { name: 'fake-model', prompt_version: expect.stringMatching(/^instruction_v1@[0-9a-f]{12}$/) } });
      expect(passed.result.verdict_basis).toBeDefined();
      // The verdict came from the diff the agent left: the fix is in it.
      const tryDirs = (await readdir(path.join(out, 'fake-model/agent_runs/toy_fail_pytest'))).sort();
      const [lostTryDir = '', passedTry = ''] = tryDirs.map((dir) => path.join(out, 'fake-model/agent_runs/toy_fail_pytest', dir));
      passedTryDir = passedTry;
      const agentPatch = await readFile(path.join(out, passed.artifact_paths['agent_patch'] ?? ''), 'utf8');
      expect(agentPatch).toContain('+    ordered = sorted(values)');
      // A step is a model request through the gateway: each is in the cassette.
      const cassette = await readCassette(path.join(passedTryDir, 'cassette.jsonl'));
      expect(passed.metrics?.steps).toBe(cassette.exchanges.length);
      expect(cassette.exchanges.length).toBeGreaterThanOrEqual(2);
      // Each trajectory ends as our own agents' do, with the attempt's outcome.
      expect(await lastEventOf(passedTryDir)).toMatchObject({ event_type: 'run_finished', payload: { passed: true, stop_reason: 'SUCCESS', failure_reason: null, steps: passed.metrics?.steps } });
      expect(await lastEventOf(lostTryDir)).toMatchObject({ event_type: 'run_finished', payload: { passed: false, stop_reason: 'LLM_ERROR', failure_reason: 'LLM_ERROR' } });
    });

    it("ab run-agent with a budget of 1 request: the agent rewrote the tests, its next request was refused: MAX_STEPS, the agent's failure, TESTS_TAMPERED", async () => {
      phase = 'tamper';
      // The agent from a definition file of the user's (the shipped one, copied) and told by a template of the test's.
      const copied = path.join(scratch.path, 'agents', path.basename(definitionFile));
      await mkdir(path.dirname(copied), { recursive: true });
      await copyFile(definitionFile, copied);
      const template = path.join(scratch.path, 'tamper-instruction.md');
      await writeFile(template, 'Task {{task_id}}: make `{{test_command}}` pass in {{workdir}}, whatever it takes.\n');
      const requestsBefore = server.requests.length;
      const run = await runCli(['run-agent', '--agent', copied, '--instruction-template', template, '--model', 'fake-model', '--task', taskFile, '--skip-baseline', '--max-steps', '1', '--out', path.join(scratch.path, 'tamper'), '--json']);
      const printed = JSON.parse(run.stdout) as { run_dir: string; record: AttemptRecord };
      scratch.runIds.push(printed.record.run_id);
      expect(printed.record, run.stderr).toMatchObject({ variant, model: { prompt_version: expect.stringMatching(/^tamper-instruction@[0-9a-f]{12}$/) } });
      expect(JSON.stringify(server.requests.slice(requestsBefore).map((request) => request.body))).toContain('Task toy_fail_pytest: make `');
      expect(printed.record, run.stderr).toMatchObject({ failure_class: 'agent', result: { passed: false, failure_reason: 'TESTS_TAMPERED', stop_reason: 'MAX_STEPS', tampered_paths: ['tests/test_stats.py'] } });
      expect(printed.record.metrics?.steps).toBe(1);
      const cassette = await readFile(path.join(printed.run_dir, 'cassette.jsonl'), 'utf8');
      expect(cassette).toContain('"budget_stop"');
      expect(await lastEventOf(printed.run_dir)).toMatchObject({ event_type: 'run_finished', payload: { passed: false, stop_reason: 'MAX_STEPS', failure_reason: 'TESTS_TAMPERED' } });
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
}
