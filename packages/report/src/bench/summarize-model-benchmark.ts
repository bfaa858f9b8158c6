import path from 'node:path';
import type { BenchSummary, ProbeOutcome } from '@agentbench/schemas';
import { writeJsonAtomic } from '@agentbench/helpers';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { sandboxFactsOf } from '../summary/sandbox-facts.js';
import { summarizeGroup, type GroupSummary } from '../summary/summarize-report.js';
import { formatAttemptCounts } from '../summary/attempt-counts.js';

/** What a benchmark ran: `runModelBenchmark` of @agentbench/harness returns it. */
export interface ModelBenchmarkRunInput {
  outDir: string;
  runs: number;
  taskCount: number;
  entries: ReadonlyArray<{ model: string; folder: string; probe?: ProbeOutcome; isDropped: boolean; errors: readonly string[] }>;
}

export interface ModelBenchmarkEntry {
  model: string;
  /** Absolute artifact folder of the model. */
  folder: string;
  probe?: ProbeOutcome;
  /** Dropped by the probe: never run. */
  isDropped: boolean;
  /** Attempts that threw instead of recording a result (configuration errors, our bugs). */
  errors: string[];
  /** Figures read back from the model's folder; null when it holds no attempt. */
  summary: GroupSummary | null;
  /** What its attempts ran in, as their records say (`backend docker, runtime runsc`); empty when they do not say. */
  sandbox: string;
  /** Attempts (their counted tries) the scanners flagged, and how many of those passed. */
  flagged: { attempts: number; passed: number };
}

export interface ModelBenchmarkResult {
  outDir: string;
  runs: number;
  taskCount: number;
  entries: ModelBenchmarkEntry[];
  /** `<outDir>/bench-summary.json`. */
  summaryFile: string;
}

function summaryJson(result: Omit<ModelBenchmarkResult, 'summaryFile'>): BenchSummary {
  return {
    out_dir: result.outDir,
    runs: result.runs,
    tasks: result.taskCount,
    models: result.entries.map((entry) => ({
      model: entry.model,
      folder: entry.folder,
      dropped: entry.isDropped,
      probe: entry.probe === undefined ? null : { answering: entry.probe.isAnswering, message: entry.probe.message },
      errors: entry.errors,
      attempts: entry.summary?.attempts ?? 0,
      passed: entry.summary?.passed ?? 0,
      pass_rate: entry.summary?.passRate.rate ?? null,
      pass_rate_interval: entry.summary === null ? null : [entry.summary.passRate.interval.lower, entry.summary.passRate.interval.upper],
      errored_not_counted: entry.summary?.erroredNotCounted ?? 0,
      conservative_pass_rate: entry.summary?.conservativePassRate.rate ?? null,
      pass_at_k: entry.summary?.passAtK.map((estimate) => ({ k: estimate.k, value: estimate.value })) ?? [],
      mean_steps: entry.summary?.meanSteps ?? null,
      mean_tokens: entry.summary?.meanTokens ?? null,
      mean_cost_usd: entry.summary?.meanCostUsd ?? null,
      total_cost_usd: entry.summary?.totalCostUsd ?? null,
      cost_unknown_models: entry.summary?.costUnknownModels ?? [],
      sandbox: entry.sandbox === '' ? null : entry.sandbox,
      mean_duration_sec: entry.summary?.meanDurationSec ?? null,
      failures_by_reason: entry.summary?.failuresByReason ?? {},
      ran: entry.summary?.counts.ran ?? 0,
      counted: entry.summary?.counts.counted ?? 0,
      errored_by_reason: entry.summary?.counts.erroredByReason ?? {},
      unverified_tasks: entry.summary?.counts.unverifiedTasks ?? [],
      counts: entry.summary === null ? null : formatAttemptCounts(entry.summary.counts),
      flagged_attempts: entry.flagged.attempts,
      flagged_passed: entry.flagged.passed,
    })),
  };
}

/**
 * The figures of a model benchmark, read back from each model's folder like any report (pass rate
 * with its interval, pass@k over the repeats, mean steps, tokens, cost, time, failures by reason),
 * and written to `<outDir>/bench-summary.json`.
 */
export async function summarizeModelBenchmark(run: ModelBenchmarkRunInput): Promise<ModelBenchmarkResult> {
  const entries: ModelBenchmarkEntry[] = [];
  for (const ran of run.entries) {
    const entry: ModelBenchmarkEntry = { model: ran.model, folder: ran.folder, isDropped: ran.isDropped, errors: [...ran.errors], summary: null, sandbox: '', flagged: { attempts: 0, passed: 0 }, ...(ran.probe === undefined ? {} : { probe: ran.probe }) };
    entries.push(entry);
    if (entry.isDropped) continue;
    let model: ReportModel;
    try {
      model = await readRunFolders([entry.folder]);
    } catch {
      continue; // No attempt recorded (every one threw): the entry's errors say why.
    }
    entry.summary = summarizeGroup(entry.model, entry.model, model.rows);
    const source = model.sources[0];
    if (source !== undefined) entry.sandbox = sandboxFactsOf(model, source);
    const flagged = model.rows.filter((row) => (row.suspicions ?? []).length > 0);
    entry.flagged = { attempts: flagged.length, passed: flagged.filter((row) => row.passed).length };
  }
  const result = { outDir: run.outDir, runs: run.runs, taskCount: run.taskCount, entries };
  const summaryFile = path.join(run.outDir, 'bench-summary.json');
  await writeJsonAtomic(summaryFile, summaryJson(result));
  return { ...result, summaryFile };
}
