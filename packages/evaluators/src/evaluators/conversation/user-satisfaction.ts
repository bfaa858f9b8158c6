import * as v from 'valibot';
import type { ConversationTurn, EvaluationContext } from '../../context/evaluation-context.js';
import { JudgeError } from '../../judge/judge-error.js';
import { defineEvaluator, type EvaluationResult } from '../../evaluator.js';
import { createJudgeClient } from '../../judge/judge-client.js';
import { JUDGE_MODEL_TYPE_NAMES } from '../../judge/judge-configuration.js';
import type { JsonSchemaObject } from '../../judge/json-schema-subset.js';
import { conversationTranscript, JUDGE_SYSTEM_PROMPT } from '../run-material.js';
import { countPhrase, countPhraseNotNegated } from '../../text/phrase-match.js';
import { FractionSchema, NonEmptyTextListSchema } from '../parameter-schemas.js';
import { DEFAULT_NEGATIVE_INDICATORS, DEFAULT_POSITIVE_INDICATORS } from './conversation-keywords.js';
import { requireConversation } from './require-conversation.js';

export const SATISFACTION_METHODS = ['keyword_analysis', 'sentiment_analysis', 'llm_judge'] as const;
export type SatisfactionMethod = (typeof SATISFACTION_METHODS)[number];

const ParametersSchema = v.strictObject({
  satisfaction_threshold: v.optional(FractionSchema, 0.7),
  measurement_method: v.optional(v.picklist(SATISFACTION_METHODS, `expected one of: ${SATISFACTION_METHODS.join(', ')}`), 'keyword_analysis'),
  indicators: v.optional(
    v.strictObject({
      positive: v.optional(NonEmptyTextListSchema),
      negative: v.optional(NonEmptyTextListSchema),
    }),
  ),
  model_type: v.optional(v.picklist(JUDGE_MODEL_TYPE_NAMES, `expected a model type: ${JUDGE_MODEL_TYPE_NAMES.join(', ')}`)),
  temperature: v.optional(v.pipe(v.number('expected a number from 0 to 2'), v.minValue(0, 'expected a number from 0 to 2'), v.maxValue(2, 'expected a number from 0 to 2'))),
});
type Parameters = v.InferOutput<typeof ParametersSchema>;

interface Indicators {
  positive: readonly string[];
  negative: readonly string[];
}

function indicatorsOf(parameters: Parameters): Indicators {
  return {
    positive: parameters.indicators?.positive ?? DEFAULT_POSITIVE_INDICATORS,
    negative: parameters.indicators?.negative ?? DEFAULT_NEGATIVE_INDICATORS,
  };
}

/**
 * Positive / (positive + negative) indicator occurrences in the user's turns; 0.5 (neutral) when there are
 * none. A positive indicator right after a negation ("not fixed", "wasn't helpful") does not count.
 */
function keywordScore(turns: readonly ConversationTurn[], indicators: Indicators): { score: number; details: Record<string, unknown> } {
  const userText = turns.map((turn) => turn.userInput).join('\n');
  const count = (phrases: readonly string[], counter: (text: string, phrase: string) => number): Record<string, number> =>
    Object.fromEntries(phrases.map((phrase) => [phrase, counter(userText, phrase)] as const).filter(([, occurrences]) => occurrences > 0));
  const positive = count(indicators.positive, countPhraseNotNegated);
  const negative = count(indicators.negative, countPhrase);
  const positiveCount = Object.values(positive).reduce((sum, value) => sum + value, 0);
  const negativeCount = Object.values(negative).reduce((sum, value) => sum + value, 0);
  const total = positiveCount + negativeCount;
  return { score: total === 0 ? 0.5 : positiveCount / total, details: { positive, negative, positiveCount, negativeCount } };
}

const FRACTION = { type: 'number', minimum: 0, maximum: 1 };

function sentimentSchema(userTurnCount: number): JsonSchemaObject {
  return {
    type: 'object',
    properties: {
      turn_sentiments: { type: 'array', items: FRACTION, minItems: userTurnCount, maxItems: userTurnCount, description: 'Sentiment of each user turn, in order: 0 very negative, 0.5 neutral, 1 very positive.' },
      final_satisfaction: { ...FRACTION, description: 'How satisfied the user is at the end, from 0 to 1.' },
      reasoning: { type: 'string' },
    },
    required: ['turn_sentiments', 'final_satisfaction', 'reasoning'],
    additionalProperties: false,
  };
}

const SATISFACTION_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    satisfaction: { ...FRACTION, description: 'How satisfied the user is with the conversation, from 0 to 1.' },
    is_resolved: { type: 'boolean', description: "Whether the user's objective was met." },
    reasoning: { type: 'string' },
  },
  required: ['satisfaction', 'is_resolved', 'reasoning'],
  additionalProperties: false,
};

function indicatorHint(parameters: Parameters, indicators: Indicators): string {
  if (parameters.indicators === undefined) return '';
  return `\n\nSigns of satisfaction: ${indicators.positive.join(', ')}.\nSigns of dissatisfaction: ${indicators.negative.join(', ')}.`;
}

async function askJudge(parameters: Parameters, context: EvaluationContext, turns: readonly ConversationTurn[]): Promise<{ score: number; details: Record<string, unknown> }> {
  const client = createJudgeClient(context.llm);
  const transcript = conversationTranscript(context) ?? '';
  const indicators = indicatorsOf(parameters);
  const isSentiment = parameters.measurement_method === 'sentiment_analysis';
  const question = isSentiment
    ? `Rate the sentiment of each of the user's ${turns.length} turns, in order, and how satisfied the user is at the end. Follow how the sentiment changes over the conversation.`
    : "Judge how satisfied the user is with this conversation: was the user's problem resolved, was the tone positive, did the user express gratitude or frustration, did the user reach their objective?";
  const answer = await client.ask(
    {
      name: isSentiment ? 'sentiment' : 'satisfaction',
      system: JUDGE_SYSTEM_PROMPT,
      prompt: `# Question\n${question}${indicatorHint(parameters, indicators)}\n\n# Conversation\n${transcript}`,
      schema: isSentiment ? sentimentSchema(turns.length) : SATISFACTION_SCHEMA,
      ...(parameters.model_type === undefined ? {} : { modelType: parameters.model_type }),
      ...(parameters.temperature === undefined ? {} : { temperature: parameters.temperature }),
    },
    context.signal === undefined ? {} : { signal: context.signal },
  );
  const value = answer.value;
  const score = isSentiment ? value.final_satisfaction : value.satisfaction;
  if (typeof score !== 'number') throw new JudgeError('invalid_answer', `the judge's answer has no satisfaction score: ${JSON.stringify(value)}`);
  return { score, details: { answer: value, model: answer.model, isCached: answer.isCached, usage: answer.usage } };
}

/**
 * `user_satisfaction`: a satisfaction score from 0 to 1 must reach `satisfaction_threshold` (default 0.7).
 * `keyword_analysis` (default, deterministic) counts `indicators` in the user's turns; `sentiment_analysis`
 * asks the judge for the sentiment of each user turn and the final satisfaction; `llm_judge` asks it for an
 * overall satisfaction score.
 */
export const userSatisfactionEvaluator = defineEvaluator({
  type: 'user_satisfaction',
  description: "The user's satisfaction (keywords, or the LLM judge) reaches a threshold.",
  requiresConversation: true,
  params: ParametersSchema,
  async evaluate(parameters, context): Promise<EvaluationResult> {
    const { turns } = requireConversation('user_satisfaction', context);
    const method = parameters.measurement_method;
    const { score, details } = method === 'keyword_analysis' ? keywordScore(turns, indicatorsOf(parameters)) : await askJudge(parameters, context, turns);
    const threshold = parameters.satisfaction_threshold;
    const success = score >= threshold - 1e-9;
    const percent = (value: number): string => `${Number((value * 100).toFixed(1))}%`;
    return {
      success,
      score,
      message: `user satisfaction ${percent(score)} ${success ? '>=' : '<'} threshold ${percent(threshold)} (method ${method})`,
      details: { method, ...details },
    };
  },
});
