import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ATTEMPT_RECORD_SCHEMA_VERSION, type AgentEvent, type AttemptRecord } from '@agentbench/schemas';

/** Writes files under `root`, creating folders. */
async function put(root: string, relative: string, content: string): Promise<string> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

function jsonl(values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join('\n') + '\n';
}

export function attemptRecord(fields: Partial<AttemptRecord> & Pick<AttemptRecord, 'task_id'>): AttemptRecord {
  return {
    schema_version: ATTEMPT_RECORD_SCHEMA_VERSION,
    run_id: 'run-1',
    suite: 'custom-dev',
    timestamp_start: '2025-03-01T10:00:00.000Z',
    timestamp_end: '2025-03-01T10:00:05.000Z',
    duration_sec: 5,
    baseline_validation: { attempted: true, failed_as_expected: true, exit_code: 1, failure_reason: null },
    result: { passed: false, exit_code: 1, failure_reason: 'TESTS_FAILED', stop_reason: null },
    artifact_paths: {},
    variant: 'baseline',
    model: null,
    limits: { timeout_sec: 60 },
    metrics: null,
    ...fields,
  };
}

/** A suite baseline run as the harness writes it: run.json, attempts.jsonl (with one torn line), logs/<task>/. */
export async function writeSuiteRun(root: string): Promise<string> {
  const dir = path.join(root, 'runs', '2025-03-01_10-00-00__custom-dev__baseline');
  await put(dir, 'run.json', JSON.stringify({
    run_id: 'suite-run-1', kind: 'suite_baseline', created_at: '2025-03-01T10:00:00.000Z', finished_at: '2025-03-01T10:01:00.000Z',
    harness_version: '0.1.0', suite: 'custom-dev', task_ids: ['toy_fail', 'toy_pass'], options: {}, status: 'completed', counts: { total: 2, passed: 1, failed: 1 },
  }));
  await put(dir, 'logs/toy_fail/setup_1.log', '$ pip install .\nSuccessfully installed toy\n');
  await put(dir, 'logs/toy_fail/run.log', `$ pytest -q\n${'x'.repeat(20_000)}\nFAILED tests/test_stats.py::test_median - assert 2 == 3\n1 failed\n`);
  await put(dir, 'logs/toy_fail/attempt.json', JSON.stringify({
    task_id: 'toy_fail', mode: 'baseline', failure_reason: null, stage: 'baseline_run', message: 'the tests fail as expected (exit 1, 1 failing test)',
    stages: [
      { stage: 'git_clone', durationMs: 120 },
      { stage: 'setup', durationMs: 900, command: 'pip install .', exitCode: 0, failureReason: null, log: 'logs/toy_fail/setup_1.log' },
      { stage: 'baseline_run', durationMs: 1500, command: 'pytest -q', exitCode: 1, failureReason: null, log: 'logs/toy_fail/run.log' },
    ],
    mismatches: [], failing_tests: ['tests/test_stats.py::test_median'],
  }));
  await put(dir, 'logs/toy_pass/run.log', '$ pytest -q\n3 passed\n');
  const records = [
    attemptRecord({ run_id: 'suite-run-1', task_id: 'toy_fail', result: { passed: true, exit_code: 1, failure_reason: null }, artifact_paths: { logs: 'logs/toy_fail', attempt_details: 'logs/toy_fail/attempt.json', run_log: 'logs/toy_fail/run.log' } }),
    attemptRecord({ run_id: 'suite-run-1', task_id: 'toy_pass', timestamp_start: '2025-03-01T10:00:10.000Z', result: { passed: false, exit_code: 0, failure_reason: 'BASELINE_NOT_FAILING' }, artifact_paths: { logs: 'logs/toy_pass' } }),
  ];
  await put(dir, 'attempts.jsonl', `${jsonl(records)}{"schema_version": "0.1.0", "task_id": "torn`);
  return dir;
}

function eventOf(runId: string, eventType: AgentEvent['event_type'], step: number | null, payload: Record<string, unknown>, second: number): Record<string, unknown> {
  return { event_type: eventType, timestamp: `2025-03-01T11:00:${String(second).padStart(2, '0')}.000Z`, run_id: runId, step, payload };
}

export const AGENT_PATCH = '--- a/src/toy_calc/stats.py\n+++ b/src/toy_calc/stats.py\n@@ -1,2 +1,3 @@\n def median(values):\n-    return values[0]\n+    ordered = sorted(values)\n+    return ordered[len(ordered) // 2]\n';

/** An LLM agent run as the agent loop writes it: attempt.json, events.jsonl, llm_messages.jsonl, diffs/, logs/. */
export async function writeAgentRun(root: string, options: { taskId?: string; model?: string; passed?: boolean; folder?: string; hasSandboxRunLog?: boolean } = {}): Promise<string> {
  const taskId = options.taskId ?? 'toy_fail';
  const model = options.model ?? 'fake/model-a';
  const passed = options.passed ?? true;
  const runId = options.folder ?? '01JAGENTRUN0000000000000001';
  const dir = path.join(root, 'agent_runs', taskId, runId);
  const event = (eventType: AgentEvent['event_type'], step: number | null, payload: Record<string, unknown>, second: number) => eventOf(runId, eventType, step, payload, second);
  await put(dir, 'diffs/step_0002.patch', AGENT_PATCH);
  if (options.hasSandboxRunLog === true) {
    // The run tool's output as kept now: the sandbox's one command log.
    await put(dir, 'logs/tool_step_0003_run.log', '$ python -c "print(1)"\n--- stdout ---\n1 passed in 0.01s\n\n--- stderr ---\n\n--- exit 124 (timeout) after 1000 ms ---\n');
  } else {
    await put(dir, 'logs/tool_step_0003_stdout.txt', '1 passed in 0.01s\n');
    await put(dir, 'logs/tool_step_0003_stderr.txt', '');
  }
  await put(dir, 'logs/agent_tests_0001_step_0000.txt', '$ pytest -q\n# exit 1\nFAILED test_median\n');
  const events = [
    event('run_started', 0, { task_id: taskId, variant: 'llm' }, 0),
    event('tests_started', 0, { command: 'pytest -q', trigger: 'initial' }, 1),
    event('tests_finished', 0, { exit_code: 1, passed: false, timed_out: false, duration_sec: 0.4, log_path: path.join(dir, 'logs/agent_tests_0001_step_0000.txt') }, 2),
    event('llm_request_started', 1, { model, request_id: 'llm-1' }, 3),
    event('llm_request_finished', 1, { model, request_id: 'llm-1', input_tokens: 900, output_tokens: 60, cost_usd: 0.0012, duration_sec: 0.8 }, 4),
    event('tool_call_started', 1, { request_id: 'call_read', tool: 'read_file', params: { path: 'src/toy_calc/stats.py' } }, 5),
    event('tool_call_finished', 1, { request_id: 'call_read', tool: 'read_file', status: 'success', duration_sec: 0.05, error_kind: null, exit_code: null }, 6),
    event('llm_request_started', 2, { model, request_id: 'llm-2' }, 7),
    event('llm_request_finished', 2, { model, request_id: 'llm-2', input_tokens: 1100, output_tokens: 120, cost_usd: 0.0016, duration_sec: 1.1 }, 8),
    event('tool_call_started', 2, { request_id: 'call_patch', tool: 'apply_patch', params: { unified_diff: AGENT_PATCH } }, 9),
    event('tool_call_finished', 2, { request_id: 'call_patch', tool: 'apply_patch', status: 'success', duration_sec: 0.02, error_kind: null, exit_code: null }, 10),
    event('patch_applied', 2, { patch_path: 'diffs/step_0002.patch', files_changed: ['src/toy_calc/stats.py'] }, 11),
    event('tool_call_started', 3, { request_id: 'call_run', tool: 'run', params: { command: 'python -c "print(1)"' } }, 12),
    event('tool_call_finished', 3, { request_id: 'call_run', tool: 'run', status: 'error', duration_sec: 0.3, error_kind: 'timeout', exit_code: 124, message: 'timed out after 1 s' }, 13),
    event('agent_stopped', 3, { stop_reason: passed ? 'SUCCESS' : 'MAX_STEPS', message: passed ? 'the tests pass' : 'no steps left' }, 14),
    event('run_finished', 3, { passed, stop_reason: passed ? 'SUCCESS' : 'MAX_STEPS', failure_reason: passed ? null : 'AGENT_GAVE_UP', steps: 3, duration_sec: 14 }, 15),
  ];
  await put(dir, 'events.jsonl', `${jsonl(events.slice(0, 3))}this is not json\n${jsonl(events.slice(3))}`);
  const messages = [
    { run_id: runId, step: 1, attempt: 1, direction: 'request', api: 'chat', model, body: { messages: [{ role: 'user', content: 'fix it' }] } },
    { run_id: runId, step: 1, attempt: 1, direction: 'response', api: 'chat', model, body: { choices: [{ message: { content: 'Let me read the file.', tool_calls: [{ id: 'call_read', function: { name: 'read_file', arguments: '{"path":"src/toy_calc/stats.py"}' } }] } }] } },
    { run_id: runId, step: 2, attempt: 1, direction: 'request', api: 'chat', model, body: { messages: [{ role: 'tool', tool_call_id: 'call_read', content: 'def median(values):\n    return values[0]\n' }] } },
    { run_id: runId, step: 2, attempt: 1, direction: 'response', api: 'chat', model, body: { choices: [{ message: { content: 'The median is wrong; patching.' } }] } },
  ];
  await put(dir, 'llm_messages.jsonl', jsonl(messages));
  const record = attemptRecord({
    run_id: runId,
    task_id: taskId,
    timestamp_start: '2025-03-01T11:00:00.000Z',
    timestamp_end: '2025-03-01T11:00:15.000Z',
    duration_sec: 15,
    variant: 'llm',
    model: { provider: 'openrouter', name: model },
    result: { passed, exit_code: passed ? 0 : 1, failure_reason: passed ? null : 'AGENT_GAVE_UP', stop_reason: passed ? 'SUCCESS' : 'MAX_STEPS' },
    metrics: { steps: 3, tool_calls: 3, input_tokens: 2000, output_tokens: 180, cost_usd: 0.0028 },
    artifact_paths: { events: 'events.jsonl', llm_messages: 'llm_messages.jsonl', diffs: 'diffs', logs: 'logs' },
  });
  await put(dir, 'attempt.json', JSON.stringify(record, null, 2));
  return dir;
}

/** A conversation scenario run as the scenario runner writes it: result.json. */
export async function writeScenarioRun(root: string, options: { passed?: boolean } = {}): Promise<string> {
  const passed = options.passed ?? false;
  const dir = path.join(root, 'scenarios', '2025-03-01_12-00-00__support-chat__01JSCENARIO');
  await put(dir, 'result.json', JSON.stringify({
    schema_version: 1,
    run_id: '01JSCENARIO',
    status: passed ? 'passed' : 'failed',
    passed,
    scenario: { name: 'Support chat', description: 'A customer asks for help', file: '/x/support-chat.scenario.yaml' },
    parameters: { seed: 1, is_live: false, agent: 'llm', provider: 'local', models: { agent: 'fake/model-a', simulator: 'fake/sim', judge: 'fake/judge' } },
    started_at: '2025-03-01T12:00:00.000Z',
    finished_at: '2025-03-01T12:00:09.000Z',
    metrics: { execution_time_ms: 9000, llm_calls: 6, total_tokens: 3000, per_role: { agent: { calls: 3, input_tokens: 1500, output_tokens: 300, total_tokens: 1800 }, simulator: { calls: 2, input_tokens: 700, output_tokens: 100, total_tokens: 800 }, judge: { calls: 1, input_tokens: 350, output_tokens: 50, total_tokens: 400 } }, service_calls: 0, mocked_calls: 0, conversation_turns: 2 },
    final_response: 'Your order ships tomorrow.',
    steps: [{ index: 0, name: 'chat', kind: 'conversation', status: 'completed', response: 'Your order ships tomorrow.', stdout: '', stderr: '', exit_code: null, duration_ms: 8000,
      conversation: { turn_count: 2, terminated_early: true, termination_reason: 'user_expresses_satisfaction', total_duration_ms: 8000, turns: [
        { turn: 1, user_input: 'Where is my order </script><script>alert(1)</script>?', agent_response: 'Let me check order 42.', started_at: '2025-03-01T12:00:01.000Z', duration_ms: 3000 },
        { turn: 2, user_input: 'Thanks!', agent_response: 'Your order ships tomorrow.', started_at: '2025-03-01T12:00:04.000Z', duration_ms: 2500 },
      ] } }],
    evaluations: [
      { step: 0, phase: 'final', type: 'string_contains', success: true, message: 'found "ships"', weight: 1, negated: false },
      { step: 0, phase: 'final', type: 'llm_judge', description: 'polite and correct', success: false, message: 'The agent never apologised for the delay.', score: 0.4, weight: 1, negated: false, details: { reasoning: 'Tone was curt; the customer had waited a week.', verdict: 'no' } },
    ],
    judgment: { strategy: 'all_pass', passed, score: 0.5, reason: 'all_pass: 1 of 2 evaluations passed; failed: [1] llm_judge' },
    trajectory: [
      { type: 'thought', content: 'The user wants an order status.', timestamp: '2025-03-01T12:00:01.500Z', step: 0, turn: 1 },
      { type: 'action', name: 'orders.lookup', success: true, content: '{"id":42}', timestamp: '2025-03-01T12:00:02.000Z', step: 0, turn: 1 },
      { type: 'observation', name: 'orders.lookup', success: true, content: '{"status":"packed"}', timestamp: '2025-03-01T12:00:02.200Z', step: 0, turn: 1 },
    ],
    service_calls: [], files: {}, warnings: [], errors: [],
  }, null, 2));
  return dir;
}
