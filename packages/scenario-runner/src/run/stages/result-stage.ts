import path from 'node:path';
import { timestampForPath, writeJsonAtomic } from '@agentbench/helpers';
import { slugForPath } from '../result-files.js';
import { SCENARIO_RESULT_SCHEMA_VERSION, type ScenarioRunResult } from '../scenario-result.js';
import type { RunJudgment } from './judgment-stage.js';
import type { ScenarioRun } from './scenario-run.js';

/** The run's folder: `--out`, else `<artifacts>/scenarios/<time>__<name>__<run id>` (known from the start, so the cassette goes there too). */
export function resultFolderOf(run: ScenarioRun): string {
  return path.resolve(run.options.outDir ?? path.join(run.options.artifactsDir ?? 'artifacts', 'scenarios', `${timestampForPath(run.startedAt)}__${slugForPath(run.definition.name)}__${run.runId}`));
}

/** The run's result, written atomically to `result.json` (unless `writeResult: false`). */
export async function resultStage(run: ScenarioRun, { status, verdict }: RunJudgment): Promise<ScenarioRunResult> {
  const { definition, options, steps, gateway, meter, errors } = run;
  const finishedAt = new Date();
  const result: ScenarioRunResult = {
    schema_version: SCENARIO_RESULT_SCHEMA_VERSION,
    run_id: run.runId,
    status,
    passed: status === 'passed',
    scenario: { name: definition.name, description: definition.description, file: run.loaded.file },
    parameters: {
      seed: run.seed,
      is_live: options.isLive === true,
      agent: run.resources.agent?.description ?? `${run.agentChoice.spec.type} (not started)`,
      provider: run.providerType,
      ...(options.envFile === undefined ? {} : { env_file: path.resolve(options.envFile) }),
      models: run.models,
      ...(options.matrix === undefined ? {} : { matrix: options.matrix }),
    },
    started_at: run.startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    metrics: {
      execution_time_ms: finishedAt.getTime() - run.startedAt.getTime(),
      llm_calls: meter.totalCalls,
      total_tokens: meter.totalTokens,
      per_role: meter.snapshot(),
      service_calls: gateway.calls.length,
      mocked_calls: gateway.calls.filter((call) => call.isMocked).length,
      conversation_turns: steps.reduce((sum, step) => sum + (step.conversation?.turn_count ?? 0), 0),
    },
    final_response: run.finalResponse,
    steps,
    evaluations: run.evaluationRecords,
    judgment: { strategy: definition.judgment.strategy, passed: verdict.passed && status !== 'errored', score: verdict.score, reason: errors.length > 0 ? `errored: ${errors[0]?.message}` : verdict.reason },
    trajectory: [...run.trajectory.entries],
    service_calls: gateway.calls,
    files: run.files,
    warnings: run.warnings,
    errors,
  };
  if (options.writeResult !== false) {
    const file = path.join(resultFolderOf(run), 'result.json');
    result.result_file = file;
    await writeJsonAtomic(file, result);
  }
  return result;
}
