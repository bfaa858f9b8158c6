import {
  containsPhrase,
  DEFAULT_POSITIVE_INDICATORS,
  ESCALATION_PHRASES,
  SOLUTION_PHRASES,
  type ConversationRecord,
  type JsonSchemaObject,
  type TerminationConditionDefinition,
} from '@agentbench/evaluators';
import { showText, showValue, type TerminationCondition } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { formatTranscript, type ConversationTurnRecord } from './conversation-types.js';

/** Why a conversation stops now. */
export interface TerminationDecision {
  conditionIndex: number;
  type: TerminationCondition['type'];
  reason: string;
  details?: Record<string, unknown>;
}

/** The judge's verdict on an `llm_judge` condition. */
export interface TerminationJudgeVerdict {
  shouldEnd: boolean;
  confidence: number;
  reasoning: string;
}

export type TerminationJudge = (request: { prompt: string; transcript: string }, signal?: AbortSignal) => Promise<TerminationJudgeVerdict>;

/** A plugin's condition, found by `name` (and `plugin`, when the scenario names it). */
export interface CustomTerminationCondition {
  pluginName: string;
  definition: TerminationConditionDefinition;
}

export interface TerminationDependencies {
  judge?: TerminationJudge;
  customConditions: ReadonlyMap<string, CustomTerminationCondition>;
  log?: (message: string) => void;
}

/** Whose words a keyword condition reads. */
type Subject = 'user' | 'agent' | 'both';

const SUBJECTS: Record<TerminationCondition['type'], Subject> = {
  user_expresses_satisfaction: 'user',
  agent_provides_solution: 'agent',
  escalation_needed: 'agent',
  goal_achieved: 'both',
  conversation_stuck: 'both',
  custom_condition: 'both',
  max_turns_reached: 'both',
};

/** Keywords of the types that have sensible defaults when a file gives none. */
const DEFAULT_KEYWORDS: Partial<Record<TerminationCondition['type'], readonly string[]>> = {
  user_expresses_satisfaction: DEFAULT_POSITIVE_INDICATORS,
  agent_provides_solution: SOLUTION_PHRASES,
  escalation_needed: ESCALATION_PHRASES,
};

export const TERMINATION_JUDGE_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    should_end: { type: 'boolean', description: 'Whether the condition described in the question holds now.' },
    confidence: { type: 'number', minimum: 0, maximum: 1, description: 'How sure you are, from 0 to 1.' },
    reasoning: { type: 'string' },
  },
  required: ['should_end', 'confidence', 'reasoning'],
  additionalProperties: false,
};

/** The keywords a condition uses: its own, else its type's defaults, else none. */
export function conditionKeywords(condition: TerminationCondition): readonly string[] {
  return condition.keywords ?? (condition.llm_judge === undefined && condition.name === undefined ? (DEFAULT_KEYWORDS[condition.type] ?? []) : []);
}

/** Finds the plugin condition a `custom_condition` names; throws before the run when there is none. */
/** Why a plugin termination condition cannot be used (its field path and the message), or undefined. */
export function customConditionProblem(
  condition: TerminationCondition,
  index: number,
  available: ReadonlyMap<string, CustomTerminationCondition>,
  where: string,
): { path: string; message: string } | undefined {
  if (condition.name === undefined) return undefined;
  const found = available.get(condition.name);
  const field = `${where}.termination_conditions[${index}]`;
  if (found === undefined) {
    const names = [...available.keys()];
    return {
      path: `${field}.name`,
      message: `no plugin provides the termination condition ${showValue(condition.name)}${condition.plugin === undefined ? '' : ` (expected from plugin ${showText(condition.plugin)})`}; available: ${names.length === 0 ? 'none' : names.join(', ')}`,
    };
  }
  if (condition.plugin !== undefined && condition.plugin !== found.pluginName) {
    return { path: `${field}.plugin`, message: `the condition ${showValue(condition.name)} comes from plugin ${found.pluginName}, not ${showText(condition.plugin)}` };
  }
  return undefined;
}

/** The plugin condition a termination condition names; throws a configuration error when it cannot be used. */
export function findCustomCondition(condition: TerminationCondition, index: number, available: ReadonlyMap<string, CustomTerminationCondition>, where: string): CustomTerminationCondition | undefined {
  const problem = customConditionProblem(condition, index, available, where);
  if (problem !== undefined) throw new ScenarioRunnerError('configuration', `${problem.path}: ${problem.message}`);
  return condition.name === undefined ? undefined : available.get(condition.name);
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Checks the conditions in order after a turn; the first that holds ends the conversation:
 * keywords (whole words, any case) in the user's message (`user_expresses_satisfaction`), the agent's
 * reply (`agent_provides_solution`, `escalation_needed`) or both (the others); `llm_judge` asks the
 * judge and holds when it says so with at least `threshold` confidence; a plugin condition's `check`;
 * `conversation_stuck` without keywords holds when the agent repeats its previous reply.
 */
export async function checkTerminationConditions(
  conditions: readonly TerminationCondition[],
  turns: readonly ConversationTurnRecord[],
  dependencies: TerminationDependencies,
  signal?: AbortSignal,
): Promise<TerminationDecision | undefined> {
  const last = turns[turns.length - 1];
  if (last === undefined) return undefined;
  for (const [index, condition] of conditions.entries()) {
    const subject = SUBJECTS[condition.type];
    const texts = subject === 'user' ? [last.userInput] : subject === 'agent' ? [last.agentResponse] : [last.userInput, last.agentResponse];
    const found = conditionKeywords(condition).find((keyword) => texts.some((text) => containsPhrase(text, keyword)));
    if (found !== undefined) {
      const whose = subject === 'user' ? "the user's message" : subject === 'agent' ? "the agent's reply" : 'the last exchange';
      return { conditionIndex: index, type: condition.type, reason: `${condition.type}: "${found}" in ${whose} (turn ${last.turnNumber})`, details: { keyword: found } };
    }
    if (condition.type === 'conversation_stuck' && condition.keywords === undefined && condition.llm_judge === undefined) {
      const previous = turns[turns.length - 2];
      if (previous !== undefined && normalize(previous.agentResponse) === normalize(last.agentResponse)) {
        return { conditionIndex: index, type: condition.type, reason: `conversation_stuck: the agent repeated its reply of turn ${previous.turnNumber}` };
      }
    }
    if (condition.llm_judge !== undefined) {
      if (dependencies.judge === undefined) throw new ScenarioRunnerError('configuration', `termination_conditions[${index}].llm_judge: no judge is configured`);
      const verdict = await dependencies.judge({ prompt: condition.llm_judge.prompt, transcript: formatTranscript(turns) }, signal);
      dependencies.log?.(`termination check ${index} (${condition.type}, llm_judge): should_end=${verdict.shouldEnd} confidence=${verdict.confidence} threshold=${condition.llm_judge.threshold}`);
      if (verdict.shouldEnd && verdict.confidence >= condition.llm_judge.threshold) {
        return {
          conditionIndex: index,
          type: condition.type,
          reason: `${condition.type}: the judge says yes with confidence ${verdict.confidence} (threshold ${condition.llm_judge.threshold}): ${verdict.reasoning}`,
          details: { confidence: verdict.confidence, reasoning: verdict.reasoning },
        };
      }
    }
    if (condition.name !== undefined) {
      const custom = dependencies.customConditions.get(condition.name);
      if (custom === undefined) throw new ScenarioRunnerError('configuration', `termination_conditions[${index}].name: no plugin provides ${JSON.stringify(condition.name)}`);
      const record: ConversationRecord = { turns: turns.map(({ turnNumber, userInput, agentResponse, durationMs }) => ({ turnNumber, userInput, agentResponse, durationMs })), transcript: formatTranscript(turns), terminationReason: null };
      let holds: boolean;
      try {
        holds = (await custom.definition.check(record, { description: condition.description, plugin: custom.pluginName })) === true;
      } catch (error) {
        throw new ScenarioRunnerError('conversation', `termination condition ${JSON.stringify(condition.name)} of plugin ${custom.pluginName} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      dependencies.log?.(`termination check ${index} (custom ${condition.name}): ${holds}`);
      if (holds) return { conditionIndex: index, type: condition.type, reason: `custom_condition ${condition.name} (plugin ${custom.pluginName})${condition.description === undefined ? '' : `: ${condition.description}`}` };
    }
  }
  return undefined;
}
