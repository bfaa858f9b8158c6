import type { CassetteExchange } from '@agentbench/schemas';
import type { AgentTrajectory, ModelTurnStep, ToolStep } from '../agent-trajectory.js';
import { answerOfExchange, type GatewayAnswer } from './answer-of-exchange.js';

function turnOf(answer: GatewayAnswer): ModelTurnStep {
  return {
    kind: 'model_turn',
    text: answer.text,
    toolCallCount: answer.toolCallCount,
    ...(answer.model === undefined ? {} : { model: answer.model }),
    ...(answer.usage === undefined ? {} : { usage: answer.usage }),
  };
}

/**
 * The trajectory with the gateway's recorded exchanges (the attempt's cassette) as its model turns.
 * When the stream has one model turn per recorded answer (Claude Code, Qwen Code), each turn keeps
 * its text and takes the gateway's usage: the provider's final count, where a stream may carry the
 * count at the answer's start. Otherwise (Codex, whose stream names no requests) the stream's turns
 * are replaced by the recorded answers, each followed by as many of the stream's tool steps, in
 * order, as it asked for. Exchanges of other roles (a judge) and unanswered ones are left out.
 */
export function mergeGatewayTurns(trajectory: AgentTrajectory, exchanges: readonly CassetteExchange[], role = 'agent'): AgentTrajectory {
  const answers = exchanges.filter((exchange) => exchange.role === role).map(answerOfExchange).filter((answer): answer is GatewayAnswer => answer !== undefined);
  if (answers.length === 0) return trajectory;
  const streamTurns = trajectory.steps.filter((step): step is ModelTurnStep => step.kind === 'model_turn');
  if (streamTurns.length === answers.length) {
    const steps = trajectory.steps.map((step) => {
      if (step.kind !== 'model_turn') return step;
      const answer = answers[streamTurns.indexOf(step)]!;
      return { ...step, toolCallCount: answer.toolCallCount, model: step.model ?? answer.model, ...(answer.usage === undefined ? {} : { usage: answer.usage }) } as ModelTurnStep;
    });
    return { ...trajectory, steps };
  }
  const tools = trajectory.steps.filter((step): step is ToolStep => step.kind === 'tool');
  const steps: AgentTrajectory['steps'] = [];
  let next = 0;
  for (const answer of answers) {
    steps.push(turnOf(answer));
    const taken = tools.slice(next, next + answer.toolCallCount);
    steps.push(...taken);
    next += taken.length;
  }
  // Tool steps no recorded answer accounts for (a cassette cut short) keep their order at the end.
  steps.push(...tools.slice(next));
  return { ...trajectory, steps };
}
