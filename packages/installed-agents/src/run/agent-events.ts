import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent, CassetteExchange, StopReason } from '@agentbench/schemas';
import { AGENT_STREAM_FORMATS, mergeGatewayTurns, parseAgentStream, TrajectoryError, trajectoryEvents, type AgentTrajectory } from '@agentbench/trajectories';

/** The agent_stopped message's cap: its exit and the errors its stream reported, each already cut by the parsers. */
const MESSAGE_CHARACTERS = 4000;

/** What the runner needs of the attempt's gateway (an `AttemptGateway` of `@agentbench/cassette` is one). */
export interface AgentEventsGateway {
  recordedExchanges(): Promise<readonly CassetteExchange[]>;
  outcome(): { budgetStop?: { stopReason: StopReason } | undefined; infrastructureFailure?: unknown };
}

/** Where and how `runInstalledAgent` writes the attempt's `events.jsonl`. */
export interface AgentEventsOptions {
  /** The attempt's `events.jsonl`: the lines are appended in one write, after what earlier stages wrote. */
  file: string;
  runId: string;
  /** With a task id the lines start with `run_started`, as our agent loop's do. */
  taskId?: string;
  /** Written in `run_started`; default the agent's name. */
  variant?: string;
  /** The attempt's gateway: its recorded exchanges are the model turns (with the provider's usage), its budget stop the stop reason. */
  gateway?: AgentEventsGateway;
}

/** How the agent's command ended, as far as the events need it. */
export interface AgentEnd {
  output: string;
  format: string;
  exitCode: number;
  timedOut: boolean;
  isAborted: boolean;
  workspace: string;
  agentName: string;
  agentVersion: string | undefined;
  at: string;
}

/** The agent's trajectory: its own stream (when its format has a reader) merged with the gateway's exchanges. */
export async function agentTrajectory(end: AgentEnd, gateway: AgentEventsGateway | undefined): Promise<AgentTrajectory> {
  let trajectory: AgentTrajectory = { format: end.format, steps: [], isError: false, errors: [] };
  if (Object.hasOwn(AGENT_STREAM_FORMATS, end.format)) {
    try {
      trajectory = parseAgentStream(end.format, end.output, { source: `${end.agentName}'s output`, workspace: end.workspace });
    } catch (error) {
      // The stream is the agent's (cut at the output cap, or with stray lines): the gateway's turns still tell the model side.
      if (!TrajectoryError.isInstance(error)) throw error;
      trajectory = { ...trajectory, isError: true, errors: [error.message] };
    }
  }
  return gateway === undefined ? trajectory : mergeGatewayTurns(trajectory, await gateway.recordedExchanges());
}

/**
 * Why the agent stopped: a budget the gateway enforced, the time limit, an abort, the endpoint
 * failing, else the agent's own word (an error result is giving up; an exit with an answer, SUCCESS).
 */
export function agentStopReason(end: AgentEnd, trajectory: AgentTrajectory, gateway: AgentEventsGateway | undefined): StopReason {
  const outcome = gateway?.outcome();
  if (outcome?.budgetStop !== undefined) return outcome.budgetStop.stopReason;
  if (end.timedOut) return 'MAX_TIME';
  if (end.isAborted) return 'INTERRUPTED';
  if (outcome?.infrastructureFailure !== undefined) return 'LLM_ERROR';
  return end.exitCode === 0 && !trajectory.isError ? 'SUCCESS' : 'AGENT_GAVE_UP';
}

/**
 * Appends the installed agent's steps to `events.jsonl` in the event shapes our agent loop writes
 * (`run_started`, model turns, tool calls, `patch_applied`, then `agent_stopped`), in one write so a
 * failure leaves no half of them. `run_finished` is the harness's: it knows the verdict.
 */
export async function writeAgentEvents(options: AgentEventsOptions, end: AgentEnd, trajectory: AgentTrajectory, stopReason: StopReason): Promise<AgentEvent[]> {
  const events = trajectoryEvents(trajectory, {
    runId: options.runId,
    at: end.at,
    ...(options.taskId === undefined ? {} : { taskId: options.taskId, variant: options.variant ?? end.agentName }),
    ...(end.agentVersion === undefined ? {} : { agentVersion: end.agentVersion }),
  });
  const lastStep = events.reduce((last, event) => Math.max(last, event.step ?? 0), 0);
  const message = [`${end.agentName} exited ${end.exitCode}`, ...trajectory.errors].join('; ').slice(0, MESSAGE_CHARACTERS);
  events.push({ event_type: 'agent_stopped', timestamp: end.at, run_id: options.runId, step: lastStep, payload: { stop_reason: stopReason, message } });
  await mkdir(path.dirname(options.file), { recursive: true });
  await appendFile(options.file, events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  return events;
}
