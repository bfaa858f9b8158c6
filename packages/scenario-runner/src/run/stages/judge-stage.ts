import { createJudgeClient, type EvaluationContext, type EvaluationReport } from '@agentbench/evaluators';
import { TERMINATION_JUDGE_SCHEMA, type TerminationJudge } from '../../conversation/termination.js';
import { judgeClientOptions } from '../../llm/llm-settings.js';
import { judgeUsageOf } from '../../llm/usage-meter.js';
import type { EnvironmentProvider } from '../../providers/environment-provider.js';
import type { EvaluationRecord } from '../scenario-result.js';
import type { ScenarioRun } from './scenario-run.js';

/** Where an evaluation list belongs: its step, its phase (turn, final, step) and turn. */
export type EvaluationPlace = Pick<EvaluationRecord, 'step' | 'phase' | 'turn'>;

/** How the steps get judged: the evaluation runner, the context every evaluation starts from, the conversation's termination judge. */
export interface RunEvaluation {
  evaluate(list: readonly unknown[], context: EvaluationContext, where: EvaluationPlace): Promise<EvaluationReport[]>;
  evaluationBase: Partial<EvaluationContext>;
  terminationJudge: TerminationJudge;
}

/** The model the llm_judge evaluator says answered (`details.questions[0].votes[0].model`). */
function judgeModelOf(details: unknown): string | undefined {
  const questions = (details as { questions?: { votes?: { model?: unknown }[] }[] } | undefined)?.questions;
  const model = Array.isArray(questions) ? questions[0]?.votes?.[0]?.model : undefined;
  return typeof model === 'string' ? model : undefined;
}

/**
 * The judge: evaluations record their reports (an evaluation error is a run error), judge calls count
 * in the usage meter, and the judge model is recorded once.
 */
export function judgeStage(run: ScenarioRun, provider: EnvironmentProvider): RunEvaluation {
  const { meter, models } = run;
  const judgeOptions = judgeClientOptions(run.llmSettings, run.env, run.options.matrix?.repeat ?? 0);
  const proxy = run.resources.modelProxy;
  if (proxy !== undefined) {
    judgeOptions.transportBaseURL = proxy.baseUrlFor('judge');
    // A disk-cache hit never reaches the proxy: kept as the exchange it stands for, so the cassette holds every judge answer.
    judgeOptions.onCachedAnswer = (answer) => proxy.recordCachedAnswer({ role: 'judge', ...answer, servedFrom: 'judge-cache' });
  }
  // A replay's only source of answers is the cassette.
  if (run.options.replay !== undefined) judgeOptions.noCache = true;
  const evaluationBase: Partial<EvaluationContext> = {
    llm: judgeOptions,
    runCommand: (command) => provider.run(command, { captureFiles: false, timeoutMs: run.stepTimeoutMs }),
    signal: run.runSignal,
  };
  const evaluate = async (list: readonly unknown[], context: EvaluationContext, where: EvaluationPlace): Promise<EvaluationReport[]> => {
    const reports = await run.evaluators.evaluateAll(list, context);
    for (const report of reports) {
      const judgeUsage = judgeUsageOf(report.details);
      if (judgeUsage !== undefined) {
        meter.recordCalls('judge', judgeUsage.calls, judgeUsage.usage);
        models.judge ??= judgeModelOf(report.details) ?? judgeOptions.model ?? 'default';
      }
      run.evaluationRecords.push({ ...where, ...report } as EvaluationRecord);
      if (report.error !== undefined) run.recordError(`evaluation run[${where.step}]${where.turn === undefined ? '' : ` turn ${where.turn}`}`, new Error(report.message));
    }
    return reports;
  };
  const terminationJudge: TerminationJudge = async ({ prompt, transcript }, signal) => {
    const client = createJudgeClient(judgeOptions);
    models.judge ??= client.configuration.model ?? 'default';
    const asked = Date.now();
    const answer = await client.ask(
      {
        name: 'termination',
        system: 'You decide whether a conversation between a user and an AI agent should end now. Answer only through the structured output.',
        prompt: `# Question\n${prompt}\n\n# Conversation so far\n${transcript}`,
        schema: TERMINATION_JUDGE_SCHEMA,
      },
      signal === undefined ? {} : { signal },
    );
    if (!answer.isCached) meter.recordCalls('judge', 1, answer.usage, Date.now() - asked);
    return { shouldEnd: answer.value['should_end'] === true, confidence: Number(answer.value['confidence']), reasoning: String(answer.value['reasoning'] ?? '') };
  };
  return { evaluate, evaluationBase, terminationJudge };
}
