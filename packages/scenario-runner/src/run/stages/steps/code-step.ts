import type { RunStep } from '@agentbench/schemas';
import { runCode } from '../../../code/run-code.js';
import { ScenarioRunnerError } from '../../../errors/scenario-runner-error.js';
import type { EnvironmentProvider } from '../../../providers/environment-provider.js';
import type { StepResult } from '../../scenario-result.js';
import type { ScenarioRun } from '../scenario-run.js';

/** A code step: the code runs in the environment; running past the step's time limit is an error. */
export async function runCodeStep(run: ScenarioRun, provider: EnvironmentProvider, step: RunStep, index: number, result: StepResult): Promise<void> {
  run.trajectory.action('run_code', step.code ?? '', { lang: step.lang ?? 'bash' });
  const executed = await runCode(provider, { lang: step.lang, code: step.code ?? '' }, { field: `run[${index}]`, timeoutMs: run.stepTimeoutMs, signal: run.runSignal });
  run.trajectory.observation('run_code', `exit ${executed.exitCode}${executed.timedOut ? ' (timed out)' : ''}`, executed.exitCode === 0, { durationMs: executed.durationMs });
  Object.assign(result, { response: executed.stdout, stdout: executed.stdout, stderr: executed.stderr, exit_code: executed.exitCode });
  run.files = executed.files;
  run.finalResponse = executed.stdout;
  if (executed.timedOut) throw new ScenarioRunnerError('code_step', `run[${index}]: the ${step.lang ?? 'bash'} code ran past ${run.stepTimeoutMs} ms and was stopped`);
}
