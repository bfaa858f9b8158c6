import type { AgentEvent } from '@agentbench/schemas';
import { TrajectoryError } from '../errors/trajectory-error.js';
import { excerpt } from '../streams/stream-limits.js';
import type { AgentTranscript } from './agent-transcript.js';
import { ATIF_SCHEMA_VERSION, atifProblems, type AtifStep, type AtifTrajectory } from './atif-schema.js';

export interface AtifExportInput {
  /** The attempt's `events.jsonl`, parsed and valid, in order. */
  events: readonly AgentEvent[];
  /** The agent system: our `agentbench` loop (its variant in `extra`), or an installed agent's name and version. */
  agent: { name: string; version: string; extra?: Record<string, unknown> };
  /** The attempt's run id. */
  sessionId: string;
  /** Our agent loop's transcript: answer texts and tool outputs the events do not carry. */
  transcript?: AgentTranscript;
  /** The instruction given to the agent, written as the first (user) step. */
  instruction?: string;
  /** Root-level custom data: the task, the verdict. */
  extra?: Record<string, unknown>;
}

type Metrics = NonNullable<AtifStep['metrics']>;

function addMetrics(into: Metrics | null | undefined, payload: Record<string, unknown>): Metrics {
  const metrics: Metrics = { ...(into ?? {}) };
  const add = (field: 'prompt_tokens' | 'completion_tokens' | 'cached_tokens', value: unknown): void => {
    if (typeof value === 'number' && Number.isInteger(value)) metrics[field] = (metrics[field] ?? 0) + value;
  };
  add('prompt_tokens', payload.input_tokens);
  add('completion_tokens', payload.output_tokens);
  add('cached_tokens', payload.cached_tokens);
  if (typeof payload.cost_usd === 'number' && Number.isFinite(payload.cost_usd)) metrics.cost_usd = (metrics.cost_usd ?? 0) + payload.cost_usd;
  return metrics;
}

/**
 * An attempt's trajectory in ATIF (v1.6), from its events: each agent step of ours (a model turn and
 * the tool calls it asked for, or a scripted agent's tool calls) is one ATIF `agent` step with its
 * message, `tool_calls` (the agent's own tool names when it is an installed agent), `observation`
 * (each call's output) and `metrics` (tokens, cost); test runs, failed model requests and the stop are
 * `system` steps; the instruction is the first, `user`, step. The result is checked against the
 * format's rules: a failure here is a bug of ours, reported as such.
 */
export function attemptToAtif(input: AtifExportInput): AtifTrajectory {
  const steps: AtifStep[] = [];
  const push = (step: Omit<AtifStep, 'step_id'>): AtifStep => {
    const numbered = { step_id: steps.length + 1, ...step } as AtifStep;
    steps.push(numbered);
    return numbered;
  };
  const instruction = input.instruction ?? input.transcript?.instruction;
  if (instruction !== undefined) push({ source: 'user', message: instruction });
  let current: { key: number | null; step: AtifStep } | undefined;
  const agentStep = (event: AgentEvent): AtifStep => {
    const key = event.step ?? null;
    if (current === undefined || current.key !== key) current = { key, step: push({ source: 'agent', timestamp: event.timestamp, message: '' }) };
    return current.step;
  };
  let answerIndex = 0;
  let model: string | undefined;
  const rootExtra: Record<string, unknown> = { ...(input.extra ?? {}) };
  for (const event of input.events) {
    const payload = event.payload as Record<string, unknown>;
    switch (event.event_type) {
      case 'run_started':
        rootExtra.started_at = event.timestamp;
        if (typeof payload.variant === 'string') rootExtra.variant = payload.variant;
        break;
      case 'run_finished':
        rootExtra.finished_at = event.timestamp;
        rootExtra.passed = event.payload.passed;
        if (event.payload.stop_reason) rootExtra.stop_reason = event.payload.stop_reason;
        if (event.payload.failure_reason) rootExtra.failure_reason = event.payload.failure_reason;
        break;
      case 'llm_request_started':
        model ??= event.payload.model;
        break;
      case 'llm_request_finished': {
        const step = agentStep(event);
        step.model_name = event.payload.model;
        const text = typeof payload.text === 'string' ? payload.text : input.transcript?.answers[answerIndex];
        answerIndex += 1;
        if (text !== undefined && text !== '') step.message = step.message === '' ? text : `${String(step.message)}\n${text}`;
        if (typeof payload.reasoning === 'string') step.reasoning_content = payload.reasoning;
        step.metrics = addMetrics(step.metrics, payload);
        break;
      }
      case 'tool_call_started': {
        const step = agentStep(event);
        const name = typeof payload.agent_tool === 'string' ? payload.agent_tool : event.payload.tool;
        (step.tool_calls ??= []).push({ tool_call_id: event.payload.request_id, function_name: name, arguments: event.payload.params ?? {} });
        break;
      }
      case 'tool_call_finished': {
        const step = agentStep(event);
        const id = event.payload.request_id;
        const output = typeof payload.output === 'string' ? payload.output : input.transcript?.toolOutputs.get(id);
        const summary = event.payload.status === 'error' ? `error: ${event.payload.error_kind ?? 'error'}${typeof payload.message === 'string' ? `: ${payload.message}` : ''}` : typeof event.payload.exit_code === 'number' ? `exit code ${event.payload.exit_code}` : 'done';
        const isOwnCall = (step.tool_calls ?? []).some((call) => call.tool_call_id === id);
        (step.observation ??= { results: [] }).results.push({ ...(isOwnCall ? { source_call_id: id } : {}), content: output ?? summary });
        if (typeof event.payload.exit_code === 'number' || event.payload.status === 'error') {
          const outcomes = ((step.extra ??= {}).tool_outcomes ??= {}) as Record<string, unknown>;
          outcomes[id] = { status: event.payload.status, exit_code: event.payload.exit_code ?? null };
        }
        break;
      }
      case 'patch_applied': {
        const step = agentStep(event);
        const files = ((step.extra ??= {}).files_changed ??= []) as string[];
        files.push(...(event.payload.files_changed ?? []));
        break;
      }
      case 'tests_started':
        current = undefined;
        push({ source: 'system', timestamp: event.timestamp, message: `tests: ${event.payload.command}` });
        break;
      case 'tests_finished': {
        const outcome = event.payload.passed ? 'passed' : event.payload.timed_out ? 'timed out' : `failed (exit ${event.payload.exit_code})`;
        const last = steps.at(-1);
        const result = { content: `tests ${outcome}` };
        if (last !== undefined && last.source === 'system' && String(last.message).startsWith('tests:') && last.observation == null) last.observation = { results: [result] };
        else push({ source: 'system', timestamp: event.timestamp, message: 'tests', observation: { results: [result] } });
        current = undefined;
        break;
      }
      case 'llm_request_failed':
        current = undefined;
        push({ source: 'system', timestamp: event.timestamp, message: excerpt(`model request failed: ${event.payload.error_type}: ${event.payload.message}`) });
        break;
      case 'agent_stopped':
        current = undefined;
        rootExtra.stop_reason ??= event.payload.stop_reason;
        push({ source: 'system', timestamp: event.timestamp, message: `stopped: ${event.payload.stop_reason}${event.payload.message ? `: ${excerpt(event.payload.message)}` : ''}` });
        break;
    }
  }
  if (steps.length === 0) push({ source: 'system', message: 'the attempt recorded no steps' });
  const metrics = steps.map((step) => step.metrics).filter((item): item is Metrics => item !== undefined && item !== null);
  const total = (field: 'prompt_tokens' | 'completion_tokens' | 'cached_tokens'): number | undefined => (metrics.some((item) => typeof item[field] === 'number') ? metrics.reduce((sum, item) => sum + (item[field] ?? 0), 0) : undefined);
  const costs = metrics.filter((item) => typeof item.cost_usd === 'number');
  const finalMetrics = {
    ...(total('prompt_tokens') === undefined ? {} : { total_prompt_tokens: total('prompt_tokens') }),
    ...(total('completion_tokens') === undefined ? {} : { total_completion_tokens: total('completion_tokens') }),
    ...(total('cached_tokens') === undefined ? {} : { total_cached_tokens: total('cached_tokens') }),
    ...(costs.length === 0 ? {} : { total_cost_usd: costs.reduce((sum, item) => sum + (item.cost_usd ?? 0), 0) }),
    total_steps: steps.length,
  };
  const trajectory: AtifTrajectory = {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: input.sessionId,
    agent: { name: input.agent.name, version: input.agent.version, ...(model === undefined ? {} : { model_name: model }), ...(input.agent.extra === undefined ? {} : { extra: input.agent.extra }) },
    steps,
    final_metrics: finalMetrics,
    ...(Object.keys(rootExtra).length === 0 ? {} : { extra: rootExtra }),
  };
  const problems = atifProblems(trajectory);
  if (problems.length > 0) throw new TrajectoryError('ATIF export', null, `the trajectory written is not valid ATIF (a bug): ${problems.slice(0, 5).join('; ')}`);
  return trajectory;
}
