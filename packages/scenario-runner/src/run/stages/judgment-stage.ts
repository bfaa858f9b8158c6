import { toEvaluationOutcome, type EvaluationReport } from '@agentbench/evaluators';
import { judge, type EvaluationOutcome } from '@agentbench/scoring';
import type { ScenarioRunResult } from '../scenario-result.js';
import type { ScenarioRun } from './scenario-run.js';

export interface RunJudgment {
  status: ScenarioRunResult['status'];
  verdict: ReturnType<typeof judge>;
}

/**
 * Judgment: every evaluation counts (turn, final and step ones); a completed step without any is never
 * a vacuous pass (under `all_pass` it fails unless `judgment.allow_empty`); any run error makes the run
 * `errored`, whatever the verdict.
 */
export function judgmentStage(run: ScenarioRun): RunJudgment {
  const { definition } = run;
  const outcomes: EvaluationOutcome[] = run.evaluationRecords.map((record) => toEvaluationOutcome(record as EvaluationReport));
  const { strategy, threshold, allow_empty: allowEmpty } = definition.judgment;
  for (const step of run.steps) {
    const source = definition.run[step.index];
    const count = (source?.evaluations.length ?? 0) + (source?.conversation?.turn_evaluations.length ?? 0) + (source?.conversation?.final_evaluations.length ?? 0);
    if (count > 0 || step.status !== 'completed') continue;
    const label = step.name === `run[${step.index}]` ? step.name : `run[${step.index}] (${step.name})`;
    if (allowEmpty) {
      run.warnings.push(`${label} has no evaluations (allowed by judgment.allow_empty)`);
    } else {
      run.warnings.push(`${label} has no evaluations: it proves nothing${strategy === 'all_pass' ? ', so all_pass fails (set judgment.allow_empty: true to allow it)' : ''}`);
      if (strategy === 'all_pass') outcomes.push({ success: false, name: `run[${step.index}] has no evaluations`, error: 'a step without evaluations is not a pass' });
    }
  }
  const verdict = judge({ strategy, ...(threshold === undefined ? {} : { threshold }), allowEmpty }, outcomes);
  const status = run.errors.length > 0 ? 'errored' : verdict.passed ? 'passed' : 'failed';
  return { status, verdict };
}
