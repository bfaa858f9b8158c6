import type { RunStep } from '@agentbench/schemas';
import type { AgentUnderTest, ChatMessage } from '../../../agents/agent-under-test.js';
import { ScenarioRunnerError } from '../../../errors/scenario-runner-error.js';
import type { EnvironmentProvider } from '../../../providers/environment-provider.js';
import type { StepResult } from '../../scenario-result.js';
import type { ScenarioRun } from '../scenario-run.js';

/** An input step: the agent answers one message (with the history so far) within the step's time limit. */
export async function runInputStep(run: ScenarioRun, provider: EnvironmentProvider, step: RunStep, index: number, result: StepResult, history: ChatMessage[]): Promise<void> {
  const agent = run.resources.agent as AgentUnderTest;
  const signal = AbortSignal.any([run.runSignal, AbortSignal.timeout(run.stepTimeoutMs)]);
  let reply: string;
  try {
    reply = (await agent.respond({ input: step.input ?? '', history: [...history], signal, turn: 1 })).response;
  } catch (error) {
    if (signal.aborted && !run.runSignal.aborted) throw new ScenarioRunnerError('agent_timeout', `run[${index}]: the agent did not answer within ${run.stepTimeoutMs} ms`, { cause: error });
    throw error;
  }
  history.push({ role: 'user', content: step.input ?? '' }, { role: 'assistant', content: reply });
  Object.assign(result, { response: reply, stdout: reply, exit_code: 0 });
  run.finalResponse = reply;
  run.files = await provider.readFiles();
}
