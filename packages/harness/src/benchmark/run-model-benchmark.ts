import { runScheduled } from '@agentbench/scheduler';
import { ConfigurationError } from '@agentbench/schemas';
import { timestampForPath } from '@agentbench/helpers';
import path from 'node:path';
import { runAgentRun, type AgentRunEvent, type AgentRunOptions, type AgentRunResult } from '../run/run-agent-run.js';
import { modelFolderName, providerOf, readModelList } from '../plan/model-list.js';
import { probeModel, type ModelProbe, type ProbeOutcome } from './probe-model.js';

export interface ModelBenchmarkOptions extends Omit<AgentRunOptions, 'models' | 'onProgress'> {
  /** Model names, or a models.txt path or comma-separated list (as `--models`). Empty: the agent's own model (the run's, on a resume). */
  models: string | readonly string[];
  /** A cheap call first; models that do not answer are dropped (and listed). `true`: one LLM completion of 16 tokens. */
  probe?: boolean | ModelProbe;
  /** Attempts in flight at once per provider (the part of the model name before `/`). Default: the concurrency. */
  perProviderConcurrency?: number;
  onProgress?: (event: BenchProgressEvent) => void;
}

export type BenchProgressEvent = AgentRunEvent | { type: 'probe'; model: string; outcome: ProbeOutcome };

/** A model of the benchmark, before its figures are read back from its folder. */
export interface ModelBenchmarkRunEntry {
  model: string;
  /** Absolute artifact folder of the model. */
  folder: string;
  probe?: ProbeOutcome;
  /** Dropped by the probe: never run. */
  isDropped: boolean;
  /** Attempts that threw instead of recording a result (configuration errors, our bugs). */
  errors: string[];
}

/** What ran where; `summarizeModelBenchmark` of @agentbench/report reads the figures from it. */
export interface ModelBenchmarkRun extends Omit<AgentRunResult, 'entries'> {
  entries: ModelBenchmarkRunEntry[];
}

/**
 * `ab bench-models`: `ab run` with several models (`runAgentRun`), after an optional probe drops
 * the models that do not answer. Every (model, task, repeat) attempt runs through the scheduler
 * with a global and a per-provider limit, each model writing into its own folder of the run, with
 * the run's retries, resume and errored accounting. The figures are read back from the folders by
 * `summarizeModelBenchmark` (@agentbench/report), like any report.
 */
export async function runModelBenchmark(options: ModelBenchmarkOptions): Promise<ModelBenchmarkRun> {
  const models = typeof options.models === 'string' ? await readModelList(options.models) : [...options.models];
  // `ab run` and `ab bench-models` write the same run folder, where `ab run --help` and runAgentRun say: artifacts/runs/.
  const outDir = path.resolve(options.resume ?? options.outDir ?? path.join('artifacts', 'runs', timestampForPath()));
  const probes = new Map<string, ProbeOutcome>();
  const probe = options.probe === true ? probeModel : options.probe === false ? undefined : options.probe;
  if (probe !== undefined) {
    await runScheduled(models, { concurrency: 4, keyOf: providerOf, ...(options.signal === undefined ? {} : { signal: options.signal }) }, async (model, { signal }) => {
      let outcome: ProbeOutcome;
      try {
        outcome = await probe(model, signal);
      } catch (error) {
        outcome = { isAnswering: false, message: error instanceof Error ? error.message : String(error) };
      }
      probes.set(model, outcome);
      options.onProgress?.({ type: 'probe', model, outcome });
    });
  }
  const answering = models.filter((model) => probes.get(model)?.isAnswering !== false);
  // The models go below as the probe left them, or not at all when none were named: a resume then keeps the run's.
  const { probe: _probe, perProviderConcurrency, models: _models, ...runOptions } = options;
  const dropped: ModelBenchmarkRunEntry[] = models
    .filter((model) => !answering.includes(model))
    .map((model) => ({ model, folder: path.join(outDir, modelFolderName(model)), isDropped: true, errors: [], ...(probes.has(model) ? { probe: probes.get(model) as ProbeOutcome } : {}) }));
  if (models.length > 0 && answering.length === 0) throw new ConfigurationError('--models', `no model answered the probe (${dropped.map((entry) => `${entry.model}: ${entry.probe?.message ?? 'no answer'}`).join('; ')})`);

  const run = await runAgentRun({
    ...runOptions,
    ...(models.length === 0 ? {} : { models: answering }),
    ...(options.resume === undefined ? { outDir } : {}),
    ...(perProviderConcurrency === undefined ? {} : { perKeyConcurrency: perProviderConcurrency }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const ran = run.entries.map((entry) => ({ ...entry, ...(probes.has(entry.model) ? { probe: probes.get(entry.model) as ProbeOutcome } : {}) }));
  // In the order the models were given.
  if (models.length === 0) return { ...run, entries: ran };
  const entries = models.map((model) => ran.find((entry) => entry.model === model) ?? (dropped.find((entry) => entry.model === model) as ModelBenchmarkRunEntry));
  return { ...run, entries };
}
