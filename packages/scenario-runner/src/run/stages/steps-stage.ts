import { createEvaluationContext } from '@agentbench/evaluators';
import type { ChatMessage } from '../../agents/agent-under-test.js';
import type { ConversationResult } from '../../conversation/conversation-types.js';
import { ScenarioRunnerError } from '../../errors/scenario-runner-error.js';
import type { EnvironmentProvider } from '../../providers/environment-provider.js';
import type { StepResult } from '../scenario-result.js';
import type { RunEvaluation } from './judge-stage.js';
import { errorMessage, type ScenarioRun } from './scenario-run.js';
import { runCodeStep } from './steps/code-step.js';
import { runConversationStep } from './steps/conversation-step.js';
import { runInputStep } from './steps/input-step.js';
import { stepKind, stepName } from './steps/step-kind.js';

/**
 * The run's steps in order, each recorded in `run.steps`. A step that errors is recorded and the
 * steps after it are skipped (they would build on a broken one, and the run cannot pass); a
 * completed step's evaluations run on its outcome. A configuration error stops the run (it is the
 * user's to fix).
 */
export async function stepsStage(run: ScenarioRun, provider: EnvironmentProvider, evaluation: RunEvaluation): Promise<void> {
  const history: ChatMessage[] = [];
  let isStopped = false;
  for (const [index, step] of run.definition.run.entries()) {
    const kind = stepKind(step);
    const name = stepName(step, index);
    const stepStarted = Date.now();
    const result: StepResult = { index, name, kind, status: 'completed', response: '', stdout: '', stderr: '', exit_code: null, duration_ms: 0 };
    if (step.lang !== undefined && kind === 'code') result.lang = step.lang;
    if (step.input !== undefined && kind !== 'code') result.input = step.input;
    run.steps.push(result);
    if (isStopped || run.runSignal.aborted) {
      result.status = 'skipped';
      continue;
    }
    run.emit({ type: 'step-started', step: index, name, kind });
    run.trajectory.current = { step: index };
    const position = run.trajectory.position;
    let conversation: ConversationResult | undefined;
    try {
      if (kind === 'code') await runCodeStep(run, provider, step, index, result);
      else if (kind === 'input') await runInputStep(run, provider, step, index, result, history);
      else conversation = await runConversationStep(run, provider, evaluation, step, index, result, history);
    } catch (error) {
      if (ScenarioRunnerError.isInstance(error) && error.kind === 'configuration') throw error;
      result.status = 'errored';
      result.error = errorMessage(error);
      run.recordError(`run[${index}]`, error);
      isStopped = true;
    }
    result.duration_ms = Date.now() - stepStarted;

    // Evaluations of a completed step (an errored step's evaluations would only judge the failure).
    if (result.status === 'completed') {
      const context = createEvaluationContext({
        ...evaluation.evaluationBase,
        response: result.response,
        stdout: result.stdout,
        stderr: result.stderr,
        exitCode: result.exit_code ?? 0,
        files: run.files,
        trajectory: run.trajectory.since(position),
        durationMs: result.duration_ms,
        ...(conversation === undefined
          ? {}
          : {
              conversation: {
                turns: conversation.turns.map(({ turnNumber, userInput, agentResponse, durationMs }) => ({ turnNumber, userInput, agentResponse, durationMs })),
                transcript: conversation.transcript,
                terminationReason: conversation.terminationReason,
              },
            }),
      });
      if (step.conversation !== undefined) await evaluation.evaluate(step.conversation.final_evaluations, context, { step: index, phase: 'final' });
      await evaluation.evaluate(step.evaluations, context, { step: index, phase: 'step' });
    }
    run.emit({ type: 'step-finished', step: index, status: result.status, durationMs: result.duration_ms });
  }
}
