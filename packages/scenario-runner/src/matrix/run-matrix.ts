import path from 'node:path';
import { createDockerSandboxPool, NetworkHolderPool } from '@agentbench/sandbox';
import { FileValidationError, loadMatrix, showValue, sortIssues, type LoadedMatrix, type LoadedScenario, type MatrixSummary } from '@agentbench/schemas';
import { runScheduled } from '@agentbench/scheduler';
import { passHatK, wilsonInterval } from '@agentbench/scoring';
import { ulid } from 'ulid';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { checkMatrix } from './check-matrix.js';
import { checkAgentEndpoint } from './check-agent-endpoint.js';
import type { ScenarioPlan } from '../plan/plan-scenario.js';
import { checkSeed, createSeededRandom, randomSeed } from '../random/seeded-random.js';
import { timestampForPath, writeJsonAtomic } from '@agentbench/helpers';
import { slugForPath } from '../run/result-files.js';
import { runScenario, type RunScenarioOptions, type ScenarioRunEvent } from '../run/run-scenario.js';
import type { MatrixCombination } from './expand-matrix.js';
import { appendMatrixRun, assertSameMatrixPlan, matrixRunKey, readMatrixJournal, readMatrixPlan, writeMatrixPlan, type MatrixPlanFile } from './matrix-journal.js';

// `summary.json` is defined by its schema in @agentbench/schemas; these are its parts.
export type { MatrixSummary } from '@agentbench/schemas';
export type MatrixRunRecord = MatrixSummary['runs'][number];
export type RateFigures = MatrixSummary['overall'];

export type MatrixProgressEvent =
  | { type: 'matrix-started'; total: number; combinations: number; outputDir: string }
  | { type: 'run-started'; index: number; total: number; combination: MatrixCombination; repeat: number }
  | { type: 'run-finished'; done: number; total: number; record: MatrixRunRecord }
  | { type: 'run-event'; combination: string; repeat: number; event: ScenarioRunEvent };

export interface RunMatrixOptions extends Omit<RunScenarioOptions, 'outDir' | 'matrix' | 'runId' | 'onEvent' | 'writeResult'> {
  /** Show the combinations and the base scenario's plan; run nothing. */
  isDryRun?: boolean;
  /** Runs at once. Default 1. */
  parallel?: number;
  /** Keep the combinations whose label contains it (or matches `/regex/`). */
  filter?: string;
  /** Default `<artifactsDir>/matrix/<timestamp>__<name>/`. */
  outDir?: string;
  /**
   * A matrix run folder to continue (after a stop or `kill -9`): the runs in its `runs.jsonl` are
   * kept, the others run with their planned seeds. Another matrix, filter, seed or repeat count is refused.
   */
  resumeDir?: string;
  onProgress?: (event: MatrixProgressEvent) => void;
}

export interface MatrixDryRun {
  isDryRun: true;
  name: string;
  combinations: MatrixCombination[];
  runsPerCombination: number;
  totalRuns: number;
  plan: ScenarioPlan;
}

function rateFigures(records: readonly MatrixRunRecord[], groups: readonly (readonly MatrixRunRecord[])[], k: number): RateFigures {
  const passed = records.filter((record) => record.passed).length;
  const errored = records.filter((record) => record.status === 'errored').length;
  const complete = groups.filter((group) => group.length >= k);
  const passHat = complete.length === 0 ? null : complete.reduce((sum, group) => sum + passHatK({ attempts: group.length, passes: group.filter((record) => record.passed).length, k }), 0) / complete.length;
  return {
    runs: records.length,
    passed,
    failed: records.length - passed - errored,
    errored,
    success_rate: records.length === 0 ? null : passed / records.length,
    interval: wilsonInterval(passed, records.length),
    pass_hat_k: passHat,
  };
}

/** Success rate and pass^k per combination, per parameter value, and overall. */
export function aggregateMatrix(
  combinations: readonly MatrixCombination[],
  records: readonly MatrixRunRecord[],
  k: number,
): Pick<MatrixSummary, 'overall' | 'combinations' | 'parameters'> {
  const byCombination = new Map(combinations.map((combination) => [combination.id, records.filter((record) => record.combination === combination.id)] as const));
  const combinationRows = combinations.map((combination) => {
    const own = byCombination.get(combination.id) ?? [];
    return { id: combination.id, label: combination.label, parameters: combination.parameters, ...rateFigures(own, [own], k) };
  });
  const parameterNames = [...new Set(combinations.flatMap((combination) => Object.keys(combination.parameters)))];
  const parameters = parameterNames.map((parameter) => {
    const values: unknown[] = [];
    for (const combination of combinations) {
      const value = combination.parameters[parameter];
      if (!values.some((known) => JSON.stringify(known) === JSON.stringify(value))) values.push(value);
    }
    return {
      parameter,
      values: values.map((value) => {
        const matching = combinations.filter((combination) => JSON.stringify(combination.parameters[parameter]) === JSON.stringify(value));
        const groups = matching.map((combination) => byCombination.get(combination.id) ?? []);
        return { value, ...rateFigures(groups.flat(), groups, k) };
      }),
    };
  });
  return { overall: rateFigures(records, [...byCombination.values()], k), combinations: combinationRows, parameters };
}

/**
 * Runs a matrix (`*.matrix.yaml`): every combination of the parameter values set on the base scenario,
 * `runs_per_combination` times, each run isolated (own environment, services, mocks and seed), `parallel`
 * at once. Writes each run's result under `runs/` and `summary.json` with success rates and pass^k per
 * combination and per parameter value. A base scenario that cannot run here (a plugin or provider not
 * installed) stops before the first run.
 */
export async function runMatrix(matrixFile: string | LoadedMatrix, options: RunMatrixOptions & { isDryRun: true }): Promise<MatrixDryRun>;
export async function runMatrix(matrixFile: string | LoadedMatrix, options?: RunMatrixOptions): Promise<MatrixSummary>;
export async function runMatrix(matrixFile: string | LoadedMatrix, options: RunMatrixOptions = {}): Promise<MatrixSummary | MatrixDryRun> {
  const loaded = typeof matrixFile === 'string' ? await loadMatrix(matrixFile) : matrixFile;
  const { matrix } = loaded;
  if (loaded.baseScenario === undefined) {
    throw new ScenarioRunnerError('matrix', `${loaded.file}: base_scenario: ${loaded.baseScenarioFile} not found ("${matrix.base_scenario}" is resolved against the matrix file's folder)`);
  }
  const base: LoadedScenario = loaded.baseScenario;
  const parallel = options.parallel ?? 1;
  if (!Number.isInteger(parallel) || parallel < 1) throw new ScenarioRunnerError('configuration', `--parallel: expected a whole number ≥ 1, found ${parallel}`);
  // The same checks as `ab validate`: parameter paths and values, every combination, the base scenario's plan.
  const check = await checkMatrix(loaded, {
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    isLive: options.isLive === true,
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    ...(options.filter === undefined ? {} : { filter: options.filter }),
  });
  const { combinations } = check;
  if (combinations.length === 0) throw new ScenarioRunnerError('matrix', `--filter ${showValue(options.filter)} matches none of the ${check.combinationCount} combinations`);
  const plan = check.plan as ScenarioPlan;
  const k = matrix.runs_per_combination;
  const fileErrors = check.issues.filter((issue) => issue.severity === 'error' && issue.file === loaded.file);
  if (options.isDryRun === true && fileErrors.length === 0) {
    return { isDryRun: true, name: matrix.name, combinations, runsPerCombination: k, totalRuns: combinations.length * k, plan };
  }
  if (fileErrors.length > 0) throw new FileValidationError(sortIssues(fileErrors));
  if (plan.errors.length > 0 || plan.missing.length > 0) {
    throw new ScenarioRunnerError('matrix', `${base.file} cannot run: ${[...plan.errors, ...plan.missing].join('; ')}`);
  }
  const scenarios = check.scenarios;
  await checkAgentEndpoint(base, options);

  const startedAt = new Date();
  const recordedPlan = options.resumeDir === undefined ? undefined : await readMatrixPlan(path.resolve(options.resumeDir));
  const seed = options.seed === undefined ? (recordedPlan?.seed ?? randomSeed()) : checkSeed(options.seed, '--seed');
  const seeds = createSeededRandom(seed);
  const outputDir = path.resolve(options.resumeDir ?? options.outDir ?? path.join(options.artifactsDir ?? 'artifacts', 'matrix', `${timestampForPath(startedAt)}__${slugForPath(matrix.name)}`));
  const jobs = combinations.flatMap((combination) => Array.from({ length: k }, (_, index) => ({ combination, repeat: index + 1, seed: seeds.nextSeed(), runId: ulid() })));
  const matrixPlan: MatrixPlanFile = {
    version: 1,
    matrix_file: path.resolve(loaded.file),
    filter: options.filter ?? null,
    seed,
    runs_per_combination: k,
    combinations: combinations.map((combination) => combination.id),
  };
  if (recordedPlan !== undefined) assertSameMatrixPlan(outputDir, recordedPlan, matrixPlan);
  else await writeMatrixPlan(outputDir, matrixPlan);
  const finished = recordedPlan === undefined ? new Map<string, MatrixRunRecord>() : await readMatrixJournal<MatrixRunRecord>(outputDir);
  const records: MatrixRunRecord[] = jobs.flatMap((job) => {
    const kept = finished.get(matrixRunKey({ combination: job.combination.id, repeat: job.repeat }));
    return kept === undefined ? [] : [kept];
  });
  options.onProgress?.({ type: 'matrix-started', total: jobs.length, combinations: combinations.length, outputDir });
  let done = records.length;
  const { parallel: _parallel, filter: _filter, isDryRun: _isDryRun, outDir: _outDir, resumeDir: _resumeDir, onProgress: _onProgress, ...runOptions } = options;
  // Docker environments of the next runs join network holders started while the current ones run.
  const usesDocker = [...scenarios.values()].some((scenario) => scenario.environment.type === 'docker');
  const ownHolders = options.networkHolders === undefined && usesDocker ? new NetworkHolderPool({ labels: { taskId: 'network-holder' } }) : undefined;
  if (ownHolders !== undefined) runOptions.networkHolders = ownHolders;
  // The image and limits repeat across a matrix: the next runs' containers are started (executor
  // ready) while the current ones run, and handed out with the run's env. Removed when the matrix ends.
  const networkHolders = runOptions.networkHolders;
  const ownPool =
    options.sandboxPool === undefined && usesDocker
      ? createDockerSandboxPool({ size: parallel, labels: { taskId: 'sandbox-pool' }, ...(networkHolders === undefined ? {} : { networkHolders }) })
      : undefined;
  if (ownPool !== undefined) runOptions.sandboxPool = ownPool;
  const recordOf = (job: (typeof jobs)[number]): MatrixRunRecord => ({
    combination: job.combination.id,
    parameters: job.combination.parameters,
    repeat: job.repeat,
    run_id: job.runId,
    seed: job.seed,
    status: 'errored',
    passed: false,
    duration_ms: 0,
  });
  const isFinished = (job: (typeof jobs)[number]): boolean => finished.has(matrixRunKey({ combination: job.combination.id, repeat: job.repeat }));
  const scheduleOptions = { concurrency: parallel, stopOnFailure: true, shouldRun: (job: (typeof jobs)[number]) => !isFinished(job), ...(options.signal === undefined ? {} : { signal: options.signal }) };
  const scheduled = await runScheduled(jobs, scheduleOptions, async (job, { signal, index }) => {
    options.onProgress?.({ type: 'run-started', index, total: jobs.length, combination: job.combination, repeat: job.repeat });
    const started = Date.now();
    const record = recordOf(job);
    try {
      const result = await runScenario(
        { ...base, scenario: scenarios.get(job.combination.id) ?? base.scenario },
        {
          ...runOptions,
          signal,
          seed: job.seed,
          runId: job.runId,
          outDir: path.join(outputDir, 'runs', `${job.combination.id}__r${job.repeat}`),
          matrix: { combination: job.combination.id, parameters: job.combination.parameters, repeat: job.repeat - 1 },
          onEvent: (event) => options.onProgress?.({ type: 'run-event', combination: job.combination.id, repeat: job.repeat, event }),
        },
      );
      record.status = result.status;
      record.passed = result.passed;
      if (result.result_file !== undefined) record.result_file = result.result_file;
      if (result.errors.length > 0) record.error = result.errors.map((error) => `${error.stage}: ${error.message}`).join('; ');
    } catch (error) {
      // A run that could not even start is errored, never a pass.
      record.error = error instanceof Error ? error.message : String(error);
    }
    record.duration_ms = Date.now() - started;
    records.push(record);
    // A run cut short by the stop is not journalled: a resume runs it again.
    if (!signal.aborted) await appendMatrixRun(outputDir, record);
    done += 1;
    options.onProgress?.({ type: 'run-finished', done, total: jobs.length, record });
  }).finally(async () => {
    await ownPool?.dispose().catch(() => undefined);
    await ownHolders?.dispose();
  });
  // A throw of the progress callback (every run's own error is in its record) fails the matrix, as before.
  for (const outcome of scheduled.outcomes) if (outcome.status === 'rejected') throw outcome.error;
  // Runs the stop kept from starting are listed as errored, so the summary still names every planned run.
  for (const outcome of scheduled.outcomes) if (outcome.status === 'cancelled') records.push({ ...recordOf(outcome.item), error: 'not started: the matrix run was stopped' });
  records.sort((left, right) => left.combination.localeCompare(right.combination) || left.repeat - right.repeat);
  const summary: MatrixSummary = {
    schema_version: 1,
    name: matrix.name,
    matrix_file: loaded.file,
    base_scenario: base.file,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    seed,
    runs_per_combination: k,
    parallel,
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    ...aggregateMatrix(combinations, records, k),
    runs: records,
    output_dir: outputDir,
  };
  await writeJsonAtomic(path.join(outputDir, 'summary.json'), summary);
  return summary;
}
