import { createEvaluationContext, type EvaluationContext } from '@agentbench/evaluators';
import type { RunStep } from '@agentbench/schemas';
import type { AgentUnderTest, ChatMessage } from '../../../agents/agent-under-test.js';
import { ConversationManager } from '../../../conversation/conversation-manager.js';
import type { ConversationResult, ConversationTurnRecord } from '../../../conversation/conversation-types.js';
import { UserSimulator } from '../../../conversation/user-simulator.js';
import { ScenarioRunnerError } from '../../../errors/scenario-runner-error.js';
import type { EnvironmentProvider } from '../../../providers/environment-provider.js';
import type { StepResult } from '../../scenario-result.js';
import { createRoleClient } from '../role-client.js';
import type { RunEvaluation } from '../judge-stage.js';
import type { ScenarioRun } from '../scenario-run.js';

/**
 * A conversation step: the user simulator and the agent take turns until a termination condition,
 * each turn evaluated; the step's result carries the turns. Returns the conversation for the step's
 * final evaluations.
 */
export async function runConversationStep(
  run: ScenarioRun,
  provider: EnvironmentProvider,
  evaluation: RunEvaluation,
  step: RunStep,
  index: number,
  result: StepResult,
  history: ChatMessage[],
): Promise<ConversationResult> {
  const config = step.conversation!;
  const log = (message: string): void => run.emit({ type: 'debug', message });
  const simulator = new UserSimulator({
    client: createRoleClient('simulator', run.llmSettings, run.env, { temperature: config.user_simulator.temperature, maxOutputTokens: config.user_simulator.max_tokens }, run.models, undefined, run.resources.modelProxy),
    config: config.user_simulator,
    usage: run.meter,
    log,
  });
  const turnContext = (turn: ConversationTurnRecord, turns: readonly ConversationTurnRecord[]): EvaluationContext =>
    createEvaluationContext({
      ...evaluation.evaluationBase,
      response: turn.agentResponse,
      files: run.files,
      trajectory: turn.trajectory,
      durationMs: turn.durationMs,
      conversation: { turns: turns.map(({ turnNumber, userInput, agentResponse, durationMs }) => ({ turnNumber, userInput, agentResponse, durationMs })), transcript: '', terminationReason: null },
    });
  const manager = new ConversationManager({
    agent: run.resources.agent as AgentUnderTest,
    simulator,
    trajectory: run.trajectory,
    history,
    evaluateTurn: (turn, turns) => evaluation.evaluate(config.turn_evaluations, turnContext(turn, turns), { step: index, phase: 'turn', turn: turn.turnNumber }),
    termination: { judge: evaluation.terminationJudge, customConditions: run.customConditions },
    log,
    signal: run.runSignal,
  });
  const conversation = await manager.executeConversation(step.input ?? '', config);
  for (const turn of conversation.turns) if (turn.error === undefined) history.push({ role: 'user', content: turn.userInput }, { role: 'assistant', content: turn.agentResponse });
  const last = conversation.turns.filter((turn) => turn.error === undefined).at(-1);
  Object.assign(result, { response: last?.agentResponse ?? '', stdout: conversation.transcript, exit_code: conversation.error === undefined ? 0 : 1 });
  result.conversation = {
    turns: conversation.turns.map((turn) => ({
      turn: turn.turnNumber,
      user_input: turn.userInput,
      agent_response: turn.agentResponse,
      started_at: turn.startedAt,
      duration_ms: turn.durationMs,
      ...(turn.error === undefined ? {} : { error: turn.error }),
    })),
    turn_count: conversation.turns.length,
    terminated_early: conversation.terminatedEarly,
    termination_reason: conversation.terminationReason,
    total_duration_ms: conversation.totalDurationMs,
    ...(config.debug_options.export_full_transcript ? { transcript: conversation.transcript } : {}),
  };
  run.finalResponse = result.response;
  run.files = await provider.readFiles();
  if (conversation.error !== undefined) throw new ScenarioRunnerError('conversation', `run[${index}].conversation: ${conversation.error}`);
  return conversation;
}
