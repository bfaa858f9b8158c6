import { mcnemarExact, pairedBootstrapInterval, type BootstrapOptions } from '@agentbench/scoring';
import { ReportError } from '../errors/report-error.js';
import type { ReadProblem, ReportModel, ReportRow } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { costUnknownModels } from '../summary/cost-unknown.js';
import { firstDivergence } from './first-divergence.js';
import { NoCommonTasksError } from './no-common-tasks-error.js';
import { readToolCalls } from './read-tool-calls.js';
import {
  RUN_COMPARISON_VERSION,
  type AttemptPair,
  type AttemptSide,
  type ComparedRun,
  type TrajectoryDivergence,
  type FigureDelta,
  type PairOutcome,
  type RunComparison,
  type UnpairedAttempt,
} from './run-comparison.js';

/** The default significance level of `isSignificantlyWorse` (`ab compare --alpha`). */
export const DEFAULT_COMPARE_ALPHA = 0.05;

export interface CompareRunsOptions {
  /** McNemar p below which a difference counts as significant. Default 0.05. */
  alpha?: number;
  /** The pass-rate interval's resampling (defaults: 10,000 resamples, seed 20240101, 95%). */
  bootstrap?: BootstrapOptions;
  /** Clock for `generatedAt`. */
  now?: () => Date;
  /** Problems met while reading (bad lines), appended here. */
  problems?: ReadProblem[];
}

function sideOf(row: ReportRow): AttemptSide {
  const tokens = row.inputTokens !== null && row.outputTokens !== null ? row.inputTokens + row.outputTokens : null;
  return {
    status: row.status,
    model: row.model ?? row.variant,
    failureReason: row.failureReason,
    durationSec: row.durationSec,
    tokens,
    costUsd: row.costUsd,
    steps: row.steps,
    folder: row.folder,
    ...(row.suspicions === undefined ? {} : { suspicions: row.suspicions }),
  };
}

function outcomeOf(a: AttemptSide, b: AttemptSide): PairOutcome {
  if (a.status === 'errored' || b.status === 'errored') return 'errored';
  const isPassedA = a.status === 'passed';
  const isPassedB = b.status === 'passed';
  if (isPassedA && !isPassedB) return 'regression';
  if (!isPassedA && isPassedB) return 'fix';
  return isPassedA ? 'both-passed' : 'both-failed';
}

/** Rows per task, each task's rows in start order (the model sorts a source's rows by start time). */
function rowsByTask(model: ReportModel): Map<string, ReportRow[]> {
  const byTask = new Map<string, ReportRow[]>();
  for (const row of model.rows) {
    const list = byTask.get(row.taskId) ?? [];
    list.push(row);
    byTask.set(row.taskId, list);
  }
  return byTask;
}

const OUTCOME_ORDER: Record<PairOutcome, number> = { regression: 0, fix: 1, 'both-failed': 2, 'both-passed': 3, errored: 4 };

function figureDelta(name: FigureDelta['name'], pairs: readonly AttemptPair[], pick: (side: AttemptSide) => number | null): FigureDelta {
  // A missing figure is unknown, not zero: each side is summed over the pairs where it reports the
  // figure, and the deltas over the pairs where both do.
  const sum = (values: ReadonlyArray<number | null>): { total: number | null; count: number } => {
    const known = values.filter((value): value is number => value !== null);
    return { total: known.length === 0 ? null : known.reduce((left, right) => left + right, 0), count: known.length };
  };
  const sideA = sum(pairs.map((pair) => pick(pair.a)));
  const sideB = sum(pairs.map((pair) => pick(pair.b)));
  const both = sum(
    pairs.map((pair) => {
      const valueA = pick(pair.a);
      const valueB = pick(pair.b);
      return valueA === null || valueB === null ? null : valueB - valueA;
    }),
  );
  return {
    name,
    pairs: both.count,
    reportedA: sideA.count,
    reportedB: sideB.count,
    totalA: sideA.total,
    totalB: sideB.total,
    totalDelta: both.total,
    meanA: sideA.total === null ? null : sideA.total / sideA.count,
    meanB: sideB.total === null ? null : sideB.total / sideB.count,
    meanDelta: both.total === null ? null : both.total / both.count,
  };
}

function comparedRun(folder: string, model: ReportModel, passed: number, counted: number): ComparedRun {
  const source = model.sources[0];
  return {
    folder,
    dir: source?.dir ?? folder,
    runId: source?.run?.runId ?? null,
    kind: source?.run?.kind ?? null,
    attempts: model.rows.length,
    passed,
    passRate: counted === 0 ? null : passed / counted,
  };
}

/**
 * Compares run B with run A (`ab compare A B`): attempts are paired by task id and repeat index
 * (the n-th attempt of a task in A with the n-th in B, by start time); a pair where either side
 * errored (an infrastructure failure) is listed but left out of the statistics. It gives the
 * regressions (A passed, B failed) and fixes, McNemar's exact p on them, a paired bootstrap
 * interval of the pass-rate difference B − A, token, cost, time and step deltas, and for each
 * regression and fix the first tool call where the trajectories differ. Throws a RunFolderError
 * when a folder holds no run, and a NoCommonTasksError when the runs share no task.
 */
export async function compareRuns(folderA: string, folderB: string, options: CompareRunsOptions = {}): Promise<RunComparison> {
  const alpha = options.alpha ?? DEFAULT_COMPARE_ALPHA;
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) throw new ReportError(`alpha: expected a number between 0 and 1 such as 0.05, found ${String(alpha)}`);
  const problems = options.problems ?? [];
  // Previews are not shown here: keep the reader's work small.
  const limits = { inputCharacters: 200, outputCharacters: 200, diffCharacters: 200, logCharacters: 200, previewedLogs: 0, diffs: 0 };
  const modelA = await readRunFolders([folderA], { limits });
  const modelB = await readRunFolders([folderB], { limits });
  problems.push(...modelA.problems, ...modelB.problems);
  const tasksA = rowsByTask(modelA);
  const tasksB = rowsByTask(modelB);
  const common = [...tasksA.keys()].filter((taskId) => tasksB.has(taskId)).sort();
  if (common.length === 0) throw new NoCommonTasksError(folderA, folderB, [...tasksA.keys()].sort(), [...tasksB.keys()].sort());

  const pairs: AttemptPair[] = [];
  const rowsOfPair = new Map<AttemptPair, [ReportRow, ReportRow]>();
  const unpaired: UnpairedAttempt[] = [];
  for (const taskId of [...new Set([...tasksA.keys(), ...tasksB.keys()])].sort()) {
    const rowsA = tasksA.get(taskId) ?? [];
    const rowsB = tasksB.get(taskId) ?? [];
    const paired = Math.min(rowsA.length, rowsB.length);
    for (let repeat = 0; repeat < paired; repeat += 1) {
      const rowA = rowsA[repeat] as ReportRow;
      const rowB = rowsB[repeat] as ReportRow;
      const a = sideOf(rowA);
      const b = sideOf(rowB);
      const pair: AttemptPair = { taskId, repeat, outcome: outcomeOf(a, b), a, b };
      pairs.push(pair);
      rowsOfPair.set(pair, [rowA, rowB]);
    }
    for (let repeat = paired; repeat < rowsA.length; repeat += 1) unpaired.push({ side: 'A', taskId, repeat });
    for (let repeat = paired; repeat < rowsB.length; repeat += 1) unpaired.push({ side: 'B', taskId, repeat });
  }
  pairs.sort((left, right) => OUTCOME_ORDER[left.outcome] - OUTCOME_ORDER[right.outcome] || left.taskId.localeCompare(right.taskId) || left.repeat - right.repeat);

  const counted = pairs.filter((pair) => pair.outcome !== 'errored');
  const countOf = (outcome: PairOutcome): number => pairs.filter((pair) => pair.outcome === outcome).length;
  const regressions = countOf('regression');
  const fixes = countOf('fix');
  const mcnemar = mcnemarExact(regressions, fixes);
  const passRateDifference =
    counted.length === 0
      ? null
      : pairedBootstrapInterval(
          counted.map((pair) => ({ a: pair.a.status === 'passed' ? 1 : 0, b: pair.b.status === 'passed' ? 1 : 0 })),
          options.bootstrap,
        );

  const divergences: TrajectoryDivergence[] = [];
  for (const pair of pairs) {
    if (pair.outcome !== 'regression' && pair.outcome !== 'fix') continue;
    const [rowA, rowB] = rowsOfPair.get(pair) as [ReportRow, ReportRow];
    const trajectoryA = await readToolCalls(rowA.folder, problems);
    const trajectoryB = await readToolCalls(rowB.folder, problems);
    divergences.push(firstDivergence({ taskId: pair.taskId, repeat: pair.repeat, outcome: pair.outcome }, trajectoryA, trajectoryB));
  }

  const isSignificant = mcnemar.pValue < alpha;
  const passedA = counted.filter((pair) => pair.a.status === 'passed').length;
  const passedB = counted.filter((pair) => pair.b.status === 'passed').length;
  return {
    version: RUN_COMPARISON_VERSION,
    generatedAt: (options.now ?? (() => new Date()))().toISOString(),
    runA: comparedRun(folderA, modelA, passedA, counted.length),
    runB: comparedRun(folderB, modelB, passedB, counted.length),
    counts: {
      pairs: counted.length,
      regressions,
      fixes,
      bothPassed: countOf('both-passed'),
      bothFailed: countOf('both-failed'),
      errored: countOf('errored'),
      unpairedA: unpaired.filter((entry) => entry.side === 'A').length,
      unpairedB: unpaired.filter((entry) => entry.side === 'B').length,
    },
    mcnemar,
    passRateDifference,
    figures: [
      figureDelta('tokens', counted, (side) => side.tokens),
      figureDelta('cost_usd', counted, (side) => side.costUsd),
      figureDelta('duration_sec', counted, (side) => side.durationSec),
      figureDelta('steps', counted, (side) => side.steps),
    ],
    pairs,
    divergences,
    unpaired,
    costUnknownModels: { a: costUnknownModels(modelA.rows), b: costUnknownModels(modelB.rows) },
    tasksOnlyInA: [...tasksA.keys()].filter((taskId) => !tasksB.has(taskId)).sort(),
    tasksOnlyInB: [...tasksB.keys()].filter((taskId) => !tasksA.has(taskId)).sort(),
    verdict: {
      alpha,
      isSignificantlyWorse: isSignificant && regressions > fixes,
      isSignificantlyBetter: isSignificant && fixes > regressions,
    },
  };
}
