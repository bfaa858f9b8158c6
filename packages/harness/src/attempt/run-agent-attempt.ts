import { mkdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { LLM_PROXY_URL_VARIABLE, OPENROUTER_BASE_URL, loadAgent, resolveLlmConfig, type Agent, type AgentLoopLimits, type AgentLoopResult, type EventListener } from '@agentbench/agent-loop';
import { CASSETTE_FILE_NAME, startModelProxy, type Cassette, type Divergence, type ModelProxy, type ModelProxyMode } from '@agentbench/cassette';
import { resolveLoopLimits } from '@agentbench/agent-loop';
import { HARNESS_VERSION, loadTask, type AttemptRecord, type LoadedTask, type ModelConfig, type RunRecord } from '@agentbench/schemas';
import { ulid } from 'ulid';
import type { Scanner } from '@agentbench/evaluators';
import type { ArtifactBudget } from '../artifacts/artifact-budget.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { loadMirrorMap, type MirrorRule } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { AttemptContext } from './attempt-context.js';
import type { AttemptStage } from './attempt-stage.js';
import { prepareInstalledAgent, type InstalledAgentChoice, type PreparedInstalledAgent } from './prepare-installed-agent.js';
import { runAttemptPipeline, type AgentPlan, type InstalledAgentPlan } from './run-attempt-pipeline.js';
import type { AgentAttemptEnd, AgentRecordOptions } from './stages/record.js';
import { writingArtifact, type ArtifactWriteError } from '../errors/artifact-write-error.js';
import { createArtifactFolder, RUN_DIRECTORY_MODE, writeRunJson } from '../artifacts/run-directory.js';
import type { VerdictOutcome } from '../verdict/final-verdict.js';

export interface RunAgentAttemptOptions {
  /** task.yaml path, or a task loaded already. */
  task: string | LoadedTask;
  /** URL rewrites for the task's repository. Default: `loadMirrorMap()` (AGENTBENCH_GIT_MIRRORS and ./agentbench.config.json). */
  mirrors?: readonly MirrorRule[];
  /** Cache of remote repositories. Default: a RepoCache in its default folder. */
  cache?: RepoCache;
  /** `scripted`, `llm` (`llm_v0`), a .js/.mjs path or a package name. Default: the task's `agent.entrypoint`, else `scripted`. */
  variant?: string;
  /** An agent built by the caller, instead of loading `variant`. */
  agent?: Agent;
  /** An installed CLI agent (`--agent NAME[@VERSION]`), run in the sandbox through the attempt's model gateway, instead of `variant`. */
  installedAgent?: InstalledAgentChoice;
  /** Artifacts folder; the attempt goes to `<outDir>/agent_runs/<task_id>/<ulid>/`. Default `artifacts`. */
  outDir?: string;
  /** The attempt's own folder, exactly (created, must not exist); wins over `outDir`. `ab run` names its try folders so. */
  runDir?: string;
  /**
   * Completes the record before it is written (to `attempt.json` and `attempts.jsonl`): `ab run`
   * adds the attempt id, repeat, try and `errored` here, so every copy of the record agrees.
   */
  completeRecord?: (record: AttemptRecord) => AttemptRecord;
  skipBaseline?: boolean;
  /** Reject non-standard patches. Default: `AGENTBENCH_STRICT_PATCH`. */
  strictPatch?: boolean;
  /** `llm_messages.jsonl`. Default: `AGENTBENCH_LOG_LLM_MESSAGES` (on). */
  logLlmMessages?: boolean;
  /** Default: the task's `agent.max_steps`, else 30. */
  maxSteps?: number;
  limits?: Partial<Omit<AgentLoopLimits, 'maxSteps'>>;
  /** LLM model (wins over MODEL_NAME). */
  model?: string;
  /** Scripted agent: a script file instead of the task's. */
  scriptFile?: string;
  /** Folder custom agent paths and packages resolve from. Default `process.cwd()`. */
  baseDir?: string;
  environment?: NodeJS.ProcessEnv;
  /** Default: a hardened Docker container. */
  createSandbox?: SandboxFactory;
  /** The run's budget for kept workspaces (a suite passes one for all its attempts). Default: 1 GiB for this attempt. */
  artifactBudget?: ArtifactBudget;
  /** Bytes of stdout and of stderr each command's log keeps (`--max-output-bytes`). Default: the task's `environment.max_output_bytes`, else 10 MiB. */
  maxOutputBytes?: number;
  /** How the agent's model exchanges go through the attempt's model proxy. Default: recorded live to `cassette.jsonl`. */
  models?: AttemptModelsOptions;
  /** Scanners of plugins (`loadScanners` of @agentbench/evaluators) that read the agent's changes beside the built-in rules. */
  scanners?: readonly Scanner[];
  /** A suspicion of any scanner fails the attempt as SUSPECTED_TAMPERING (`--fail-on-suspicion`). Default: the task's `evaluation.fail_on_suspicion`, else false. */
  failOnSuspicion?: boolean;
  signal?: AbortSignal;
  onEvent?: EventListener;
  onStage?: (stage: AgentAttemptStage) => void;
}

/**
 * Every agent attempt runs a loopback model proxy (`@agentbench/cassette`) and points the agent's
 * LLM client at it (`AGENTBENCH_LLM_PROXY_URL` in the agent's environment): the attempt's
 * `cassette.jsonl` records each exchange, or a replay serves them from an earlier cassette.
 */
export interface AttemptModelsOptions {
  /** `record` (default), `replay` (offline, from `replayFrom`), `replay-then-live`. */
  mode?: ModelProxyMode;
  /** The cassette a replay serves. */
  replayFrom?: Cassette;
  /** The attempt's repeat index, part of each exchange's key. Default 0. */
  repeatIndex?: number;
  /** The live endpoint. Default: the LLM agent's, as `resolveLlmConfig` finds it in `environment`. */
  upstream?: string;
}

/** The stages an agent attempt reports (the pipeline's). */
export type AgentAttemptStage = AttemptStage;

export interface RunAgentAttemptResult {
  runDir: string;
  record: AttemptRecord;
  /** The loop's result, when the agent ran. */
  loop?: AgentLoopResult;
  /** The final test's own outcome, when it ran (the record's reason also weighs the loop's stop). */
  verdict?: VerdictOutcome;
  /** Why the attempt ended, when its folder could not take a file: the place, not the agent, failed. */
  writeFailure?: ArtifactWriteError;
  /** One line: how the attempt ended. */
  message: string;
  /** The attempt's model exchanges: its cassette and, for a replay, where it left the recording. */
  models: AttemptModelsResult;
}

export interface AttemptModelsResult {
  cassetteFile: string;
  exchangeCount: number;
  /** The first request the replayed cassette did not hold. */
  divergence?: Divergence;
  /** Where a `replay-then-live` attempt went live. */
  forkedAt?: { role: string; step: number };
  /** Recorded exchanges the replay never asked for. */
  unservedCount: number;
}

/**
 * One agent attempt, as `ab run-agent` runs it, through the attempt pipeline: baseline validation
 * → clone and pin the repository → a sandbox with network for setup, cut before the agent → the
 * agent loop → the final verdict (the agent's diff, without the task's tests, applied in a fresh
 * post-setup sandbox; see FinalVerdict) → the AttemptRecord, built and written to `attempt.json` and
 * `attempts.jsonl` by the pipeline's last stage. Artifacts under `<outDir>/agent_runs/<task_id>/<ulid>/`:
 * `run.json`, `events.jsonl`, `llm_messages.jsonl`, `diffs/step_NNNN.patch`, `logs/`,
 * `verdict/` (the applied and the dropped diff, the final test's logs), `workspace/` (the
 * agent's final tree). The agent is built before anything runs, so configuration mistakes (a
 * missing API key, a bad `--variant`) are thrown; every later failure becomes a recorded
 * FailureReason.
 */
export async function runAgentAttempt(options: RunAgentAttemptOptions): Promise<RunAgentAttemptResult> {
  const loaded = typeof options.task === 'string' ? await loadTask(options.task) : options.task;
  const task = loaded.task;
  const maxSteps = options.maxSteps ?? task.agent?.max_steps;
  const limits = resolveLoopLimits({ ...options.limits, ...(maxSteps === undefined ? {} : { maxSteps }) });
  const runId = ulid();
  const outDir = path.resolve(options.outDir ?? 'artifacts');
  const runDir = options.runDir === undefined ? path.join(outDir, 'agent_runs', task.id, runId) : path.resolve(options.runDir);
  const firstCreated = await createArtifactFolder(path.dirname(runDir));
  await writingArtifact(runDir, () => mkdir(runDir, { mode: RUN_DIRECTORY_MODE }));
  const environment = options.environment ?? process.env;
  const cassetteFile = path.join(runDir, CASSETTE_FILE_NAME);
  const models = options.models ?? {};
  let proxy: ModelProxy | undefined;
  let agent: Agent | undefined;
  let installed: PreparedInstalledAgent | undefined;
  let variant: string;
  try {
    if (options.installedAgent !== undefined) {
      // An installed agent's model requests go through the gateway its stage starts (with the same cassette).
      installed = await prepareInstalledAgent(options.installedAgent, {
        loaded,
        limits,
        model: options.model,
        environment,
        upstream: models.upstream,
        mode: models.mode ?? 'record',
        gateway: { cassette: cassetteFile, ...(models.replayFrom === undefined ? {} : { replayFrom: models.replayFrom }), run: { taskId: task.id, repeatIndex: models.repeatIndex ?? 0 } },
      });
      variant = installed.stage.variant;
    } else {
    proxy = await startModelProxy({
      mode: models.mode ?? 'record',
      cassette: cassetteFile,
      ...(models.replayFrom === undefined ? {} : { replayFrom: models.replayFrom }),
      run: { taskId: task.id, repeatIndex: models.repeatIndex ?? 0 },
      upstream: models.upstream ?? agentUpstream(environment, options.model),
      role: 'agent',
    });
    ({ agent, variant } = await agentOf(options, loaded, { ...environment, [LLM_PROXY_URL_VARIABLE]: proxy.baseUrlFor('agent') }));
    }
  } catch (error) {
    // The agent is built before anything runs: a configuration mistake leaves no attempt folder.
    await proxy?.close();
    await removeCreatedFolders(runDir, firstCreated);
    throw error;
  }
  const context = new AttemptContext({
    loaded,
    paths: { runDir, logDir: path.join(runDir, 'logs'), workspaceDir: path.join(runDir, 'workspace') },
    runId,
    mirrors: options.mirrors ?? (await loadMirrorMap()),
    // One cache for the attempt's three clones (baseline, agent, verdict).
    cache: options.cache ?? new RepoCache(),
    ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onStage === undefined ? {} : { onStage: options.onStage }),
    ...(options.artifactBudget === undefined ? {} : { artifactBudget: options.artifactBudget }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  });

  const runFile = path.join(runDir, 'run.json');
  const runRecord: RunRecord = {
    run_id: runId,
    kind: 'agent',
    created_at: new Date().toISOString(),
    finished_at: null,
    harness_version: HARNESS_VERSION,
    suite: task.suite,
    task_ids: [task.id],
    options: { task_file: loaded.file, variant, ...(options.installedAgent === undefined ? {} : { agent: options.installedAgent.agent }),
      ...(options.installedAgent?.instructionTemplate === undefined ? {} : { instruction_template: path.resolve(options.installedAgent.instructionTemplate) }), skip_baseline: options.skipBaseline === true, limits: { ...limits } },
    status: 'running',
    counts: null,
  };
  await writeRunJson(runFile, runRecord);

  const scanning = {
    ...(options.scanners === undefined ? {} : { scanners: options.scanners }),
    ...(options.failOnSuspicion === undefined ? {} : { failOnSuspicion: options.failOnSuspicion }),
  };
  const baseline = options.skipBaseline === true ? {} : { baseline: { kind: 'baseline' as const } };
  const agentProxy = proxy;
  const recordOptions: AgentRecordOptions = {
    variant,
    limits,
    model: installed?.modelConfig ?? agent?.modelConfig ?? null,
    // An installed agent's model traffic goes through its gateway: its stage closes it once the agent
    // exits (the attempt's cleanup on every other path) and reads the upstream's failure into the context.
    models:
      agentProxy === undefined
        ? { close: async () => undefined, get lastEndpointFailure() { return context.endpointFailure; }, cassetteFile }
        : { close: () => agentProxy.close(), get lastEndpointFailure() { return agentProxy.lastEndpointFailure; }, cassetteFile },
    ...(options.completeRecord === undefined ? {} : { completeRecord: options.completeRecord }),
  };
  const plan: AgentPlan | InstalledAgentPlan =
    installed !== undefined
      ? { kind: 'installed-agent', agent: installed.stage, scanning, record: recordOptions, ...baseline }
      : {
          kind: 'agent',
          agent: {
            agent: agent as Agent,
            variant,
            limits,
            ...(options.strictPatch === undefined ? {} : { strictPatch: options.strictPatch }),
            ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          },
          scanning,
          record: recordOptions,
          ...baseline,
        };
  let attempt: AgentAttemptEnd;
  try {
    attempt = await runAttemptPipeline(context, plan);
  } finally {
    // The record stage closed it; this is for a pipeline that threw before it.
    await proxy?.close();
  }
  const modelProxy = proxy ?? context.modelProxy;
  const modelsResult: AttemptModelsResult = { cassetteFile, exchangeCount: modelProxy?.exchangeCount ?? 0, unservedCount: modelProxy?.unservedExchanges().length ?? 0 };
  if (modelProxy?.divergence !== undefined) modelsResult.divergence = modelProxy.divergence;
  if (modelProxy?.forkedAt !== undefined) modelsResult.forkedAt = modelProxy.forkedAt;

  const { record, end } = attempt;
  const failureReason = record.result.failure_reason;
  const isErrored = record.failure_class === 'infra';
  await writeRunJson(runFile, {
    ...runRecord,
    finished_at: end.endedAt.toISOString(),
    status: failureReason === 'INTERRUPTED' ? 'interrupted' : 'completed',
    counts: { total: 1, passed: record.result.passed ? 1 : 0, failed: !record.result.passed && !isErrored ? 1 : 0, errored: isErrored ? 1 : 0, skipped: 0 },
    details: { message: end.message, stop_reason: attempt.loop?.stopReason ?? null, failure_reason: failureReason, ...(attempt.notes.length === 0 ? {} : { notes: attempt.notes }) },
  });
  const result: RunAgentAttemptResult = { runDir, record, message: end.message, models: modelsResult };
  if (attempt.loop !== undefined) result.loop = attempt.loop;
  if (attempt.verdict !== undefined) result.verdict = attempt.verdict;
  if (attempt.writeFailure !== undefined) result.writeFailure = attempt.writeFailure;
  return result;
}

/**
 * Removes the attempt folder and the parents this attempt created, each only while empty: another
 * attempt of the same run may be writing beside it.
 */
async function removeCreatedFolders(runDir: string, firstCreated: string | undefined): Promise<void> {
  await rm(runDir, { recursive: true, force: true });
  if (firstCreated === undefined) return;
  for (let folder = path.dirname(runDir); folder.length >= firstCreated.length; folder = path.dirname(folder)) {
    try {
      await rmdir(folder);
    } catch {
      return;
    }
    if (folder === firstCreated) return;
  }
}

/**
 * Where the LLM agent's requests would go without the proxy: the proxy's upstream. A setting the
 * agent cannot use (no key) is left for the agent's own construction to report.
 */
function agentUpstream(environment: NodeJS.ProcessEnv, model: string | undefined): string {
  try {
    return resolveLlmConfig(model === undefined ? {} : { model }, environment).client.baseURL;
  } catch {
    return environment['OPENAI_BASE_URL']?.trim() || OPENROUTER_BASE_URL;
  }
}

/** The caller's agent, or the one `variant` names (the task's `agent.entrypoint`, else `scripted`). */
async function agentOf(options: RunAgentAttemptOptions, loaded: LoadedTask, environment: NodeJS.ProcessEnv): Promise<{ agent: Agent; variant: string }> {
  if (options.agent !== undefined) return { agent: options.agent, variant: options.variant ?? options.agent.name };
  const loadedAgent = await loadAgent(options.variant ?? loaded.task.agent?.entrypoint ?? 'scripted', {
    task: loaded,
    environment,
    ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.scriptFile === undefined ? {} : { scriptFile: options.scriptFile }),
    ...(options.logLlmMessages === undefined ? {} : { logLlmMessages: options.logLlmMessages }),
  });
  return { agent: loadedAgent.agent, variant: loadedAgent.variant };
}
