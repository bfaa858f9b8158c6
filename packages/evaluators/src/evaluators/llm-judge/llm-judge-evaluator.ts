import { judge as judgeOutcomes, type EvaluationOutcome } from '@agentbench/scoring';
import type { EvaluationContext } from '../../context/evaluation-context.js';
import { JudgeError } from '../../judge/judge-error.js';
import { defineEvaluator, type EvaluationResult } from '../../evaluator.js';
import type { TokenUsage } from '../../judge/judge-cache.js';
import { createJudgeClient, type JudgeAnswer, type JudgeClient } from '../../judge/judge-client.js';
import type { JsonSchemaObject } from '../../judge/json-schema-subset.js';
import { describeRunForJudge, JUDGE_SYSTEM_PROMPT } from '../run-material.js';
import { describeExpectedAnswer, meetsExpectedAnswer } from './expected-answer.js';
import { LEVELS_JUDGMENT_SCHEMA, YES_NO_JUDGMENT_SCHEMA } from './judge-schemas.js';
import { LlmJudgeParametersSchema, VERDICT_LEVELS, type LlmJudgeParameters, type VerdictLevel } from './llm-judge-parameters.js';

const LEVEL_SCORES: Record<VerdictLevel, number> = { PASS: 1, PARTIAL: 0.5, FAIL: 0 };

/** One judge's answer to one question. */
export interface JudgeVote {
  judge: number;
  model: string;
  success: boolean;
  score: number;
  answer: Record<string, unknown>;
  isCached: boolean;
}

/** One question (the prompt, or one capability) with the votes of every judge. */
export interface JudgedQuestion {
  kind: 'prompt' | 'capability';
  question: string;
  success: boolean;
  /** Mean score of the votes (yes_no: the share of judges that passed it; levels: PASS 1, PARTIAL 0.5, FAIL 0). */
  score: number;
  votes: JudgeVote[];
}

export interface LlmJudgeDetails {
  scale: LlmJudgeParameters['scale'];
  expected?: string;
  passLevel?: VerdictLevel;
  questions: JudgedQuestion[];
  /** Per capability: did it pass, and what the (first) judge said. */
  capabilities: { capability: string; success: boolean; reasoning: unknown }[];
  usage: TokenUsage;
  calls: number;
  cacheHits: number;
}

function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  return {
    promptTokens: total.promptTokens + usage.promptTokens,
    completionTokens: total.completionTokens + usage.completionTokens,
    totalTokens: total.totalTokens + usage.totalTokens,
  };
}

function questionPrompt(parameters: LlmJudgeParameters, kind: JudgedQuestion['kind'], question: string, material: string): string {
  const answerRule =
    parameters.scale === 'levels'
      ? 'Give `verdict` PASS if it is fully met, PARTIAL if it is partly met, FAIL if it is not met.'
      : parameters.jsonSchema === undefined
        ? 'Give `judgment` "yes" or "no".'
        : 'Fill every field of the requested schema.';
  const heading =
    kind === 'prompt'
      ? `# Question\n${question}`
      : `# Capability to check\nThe agent was evaluated on: ${parameters.prompt}\nDoes the run show this capability: ${question}\n(For a yes/no answer, "yes" means it clearly does.)`;
  return `${heading}\n\n${answerRule}\n\n# The agent's run\n${material}`;
}

/** Whether one answer passes: the expected judgment (yes_no), "yes" for a capability, or a verdict at the pass level. */
function voteOutcome(parameters: LlmJudgeParameters, kind: JudgedQuestion['kind'], answer: JudgeAnswer): { success: boolean; score: number } {
  const value = answer.value;
  if (parameters.scale === 'levels') {
    const verdict = value.verdict as VerdictLevel;
    const score = LEVEL_SCORES[verdict];
    if (score === undefined) throw new JudgeError('invalid_answer', `verdict: expected one of ${VERDICT_LEVELS.join(', ')}, found ${JSON.stringify(verdict)}`);
    return { success: score >= LEVEL_SCORES[parameters.passLevel], score };
  }
  if (kind === 'capability') {
    const success = typeof value.judgment === 'string' && value.judgment.trim().toLowerCase() === 'yes';
    return { success, score: success ? 1 : 0 };
  }
  const meets = parameters.expected === undefined ? undefined : meetsExpectedAnswer(parameters.expected, value);
  if (meets === undefined) {
    throw new JudgeError('invalid_answer', `the answer ${JSON.stringify(value)} has no usable "judgment"/"confidence" to compare with ${JSON.stringify(parameters.expectedText)}`);
  }
  return { success: meets, score: meets ? 1 : 0 };
}

/** Strictly more than half of the judges must pass a question (a tie fails); its score is the mean of the votes' scores. */
function majority(votes: readonly JudgeVote[]): { success: boolean; score: number } {
  const needed = Math.floor(votes.length / 2) + 1;
  const count = judgeOutcomes({ strategy: 'threshold', threshold: needed / votes.length }, votes.map((vote) => ({ success: vote.success })));
  const score = judgeOutcomes({ strategy: 'any_pass' }, votes.map((vote) => ({ success: vote.success, score: vote.score }))).score;
  return { success: count.passed, score };
}

function summarize(parameters: LlmJudgeParameters, questions: readonly JudgedQuestion[]): string {
  const [main, ...capabilities] = questions;
  const parts: string[] = [];
  if (main !== undefined) {
    const first = main.votes[0]?.answer;
    const said = parameters.scale === 'levels' ? String(first?.verdict) : String(first?.judgment);
    const confidence = typeof first?.confidence === 'number' ? ` (confidence ${first.confidence})` : '';
    const wanted = parameters.scale === 'levels' ? `pass level ${parameters.passLevel}` : parameters.expected === undefined ? '' : describeExpectedAnswer(parameters.expected);
    const panel = main.votes.length > 1 ? `; ${main.votes.filter((vote) => vote.success).length} of ${main.votes.length} judges passed it` : '';
    parts.push(`LLM judge: ${said}${confidence}, expected ${wanted}${panel}`);
  }
  if (capabilities.length > 0) {
    const failed = capabilities.filter((question) => !question.success);
    parts.push(
      `capabilities ${capabilities.length - failed.length}/${capabilities.length}` +
        (failed.length === 0 ? '' : ` (missing: ${failed.map((question) => JSON.stringify(question.question)).join(', ')})`),
    );
  }
  return parts.join('; ');
}

async function runJudge(parameters: LlmJudgeParameters, context: EvaluationContext, client: JudgeClient): Promise<EvaluationResult> {
  const schema: JsonSchemaObject = parameters.jsonSchema ?? (parameters.scale === 'levels' ? LEVELS_JUDGMENT_SCHEMA : YES_NO_JUDGMENT_SCHEMA);
  const material = describeRunForJudge(context);
  const asked: { kind: JudgedQuestion['kind']; question: string }[] = [
    { kind: 'prompt', question: parameters.prompt },
    ...parameters.capabilities.map((capability) => ({ kind: 'capability' as const, question: capability })),
  ];
  let usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let calls = 0;
  let cacheHits = 0;
  const questions: JudgedQuestion[] = [];
  try {
    for (const { kind, question } of asked) {
      const votes: JudgeVote[] = [];
      for (const [index, settings] of parameters.judges.entries()) {
        const answer = await client.ask(
          {
            name: parameters.scale === 'levels' ? 'verdict' : 'judgment',
            system: JUDGE_SYSTEM_PROMPT,
            prompt: questionPrompt(parameters, kind, question, material),
            schema,
            ...settings,
            sample: index,
          },
          context.signal === undefined ? {} : { signal: context.signal },
        );
        calls += 1;
        if (answer.isCached) cacheHits += 1;
        usage = addUsage(usage, answer.usage);
        votes.push({ judge: index, model: answer.model, ...voteOutcome(parameters, kind, answer), answer: answer.value, isCached: answer.isCached });
      }
      questions.push({ kind, question, ...majority(votes), votes });
    }
  } catch (error) {
    // Keep the count of tokens already spent on the error, so the runner can still count them.
    if (JudgeError.isInstance(error)) error.usage = addUsage(usage, error.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    throw error;
  }
  const overall = judgeOutcomes(
    { strategy: 'all_pass' },
    questions.map((question) => ({ success: question.success, score: question.score })),
  );
  const details: LlmJudgeDetails = {
    scale: parameters.scale,
    ...(parameters.expectedText === undefined ? {} : { expected: parameters.expectedText }),
    ...(parameters.scale === 'levels' ? { passLevel: parameters.passLevel } : {}),
    questions,
    capabilities: questions
      .filter((question) => question.kind === 'capability')
      .map((question) => ({ capability: question.question, success: question.success, reasoning: question.votes[0]?.answer.reasoning })),
    usage,
    calls,
    cacheHits,
  };
  return { success: overall.passed, score: overall.score, message: summarize(parameters, questions), details };
}

/**
 * `llm_judge`: asks an LLM a question about the run, in structured output, and compares the answer.
 * Capabilities are asked one by one; with several judges each question is decided by strict majority.
 */
export const llmJudgeEvaluator = defineEvaluator({
  type: 'llm_judge',
  description: 'Asks an LLM judge a question about the run (structured output), with capabilities, verdict levels and judge panels.',
  params: LlmJudgeParametersSchema,
  async evaluate(parameters, context) {
    return runJudge(parameters, context, createJudgeClient(context.llm));
  },
});
