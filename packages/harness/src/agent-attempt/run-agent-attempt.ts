import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadAgent, type Agent, type AgentLoopLimits, type AgentLoopResult, type EventListener } from '@agentbench/agent-loop';
import { resolveLoopLimits } from '@agentbench/agent-loop/internal';
import { HARNESS_VERSION, loadTask, type AttemptRecord, type LoadedTask, type RunRecord } from '@agentbench/schemas';
import { appendJsonLine, writeJsonAtomic } from '@agentbench/schemas/internal';
import { ulid } from 'ulid';
import type { ArtifactBudget } from '../artifacts/artifact-budget.js';
import { relativeToRun } from '../attempt/attempt-paths.js';
import type { SandboxFactory } from '../attempt/sandbox-factory.js';
import { validateBaseline } from '../baseline/validate-baseline.js';
import { loadMirrorMap, type MirrorRule } from '../git/mirror-map.js';
import { RepoCache } from '../git/repo-cache.js';
import { AttemptContext } from '../pipeline/attempt-context.js';
import type { AttemptStage } from '../pipeline/attempt-stage.js';
import { runAttemptPipeline } from '../pipeline/run-attempt-pipeline.js';
import { agentAttemptRecord } from '../pipeline/stages/record.js';
import { RUN_DIRECTORY_MODE } from '../run/run-directory.js';

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
  /** Artifacts folder; the attempt goes to `<outDir>/agent_runs/<task_id>/<ulid>/`. Default `artifacts`. */
  outDir?: string;
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
  signal?: AbortSignal;
  onEvent?: EventListener;
  onStage?: (stage: AgentAttemptStage) => void;
}

/** The stages an agent attempt reports (the pipeline's). */
export type AgentAttemptStage = AttemptStage;

export interface RunAgentAttemptResult {
  runDir: string;
  record: AttemptRecord;
  /** The loop's result, when the agent ran. */
  loop?: AgentLoopResult;
  /** One line: how the attempt ended. */
  message: string;
}

/**
 * One agent attempt, as `ab run-agent` runs it, through the attempt pipeline: baseline validation
 * → clone and pin the repository → a sandbox with network for setup, cut before the agent → the
 * agent loop → the final verdict (the agent's diff, without the task's tests, applied in a fresh
 * post-setup sandbox; see FinalVerdict) → the AttemptRecord, written to `attempt.json` and
 * appended to `attempts.jsonl`. Artifacts under `<outDir>/agent_runs/<task_id>/<ulid>/`:
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
  const { agent, variant } = await agentOf(options, loaded);

  const runId = ulid();
  const outDir = path.resolve(options.outDir ?? 'artifacts');
  const runDir = path.join(outDir, 'agent_runs', task.id, runId);
  await mkdir(path.dirname(runDir), { recursive: true });
  await mkdir(runDir, { mode: RUN_DIRECTORY_MODE });
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
    options: { task_file: loaded.file, variant, skip_baseline: options.skipBaseline === true, limits: { ...limits } },
    status: 'running',
    counts: null,
  };
  await writeJsonAtomic(runFile, runRecord);

  const end = await runAttemptPipeline(context, {
    kind: 'agent',
    agent: {
      agent,
      variant,
      limits,
      ...(options.strictPatch === undefined ? {} : { strictPatch: options.strictPatch }),
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    },
    ...(options.skipBaseline === true ? {} : { validateBaseline }),
  });

  const record = agentAttemptRecord(context, { variant, limits, model: agent.modelConfig ?? null }, end);
  const attemptFile = path.join(runDir, 'attempt.json');
  record.artifact_paths['attempt'] = relativeToRun(runDir, attemptFile);
  await writeJsonAtomic(attemptFile, record);
  await appendJsonLine(path.join(runDir, 'attempts.jsonl'), record);
  const failureReason = record.result.failure_reason;
  const isErrored = failureReason === 'INTERNAL_ERROR' || failureReason === 'SANDBOX_ERROR' || failureReason === 'UNKNOWN';
  await writeJsonAtomic(runFile, {
    ...runRecord,
    finished_at: end.endedAt.toISOString(),
    status: failureReason === 'INTERRUPTED' ? 'interrupted' : 'completed',
    counts: { total: 1, passed: record.result.passed ? 1 : 0, failed: !record.result.passed && !isErrored ? 1 : 0, errored: isErrored ? 1 : 0, skipped: 0 },
    details: { message: end.message, stop_reason: context.agentRun?.stopReason ?? null, failure_reason: failureReason, ...(context.notes.length === 0 ? {} : { notes: context.notes }) },
  });
  const result: RunAgentAttemptResult = { runDir, record, message: end.message };
  if (context.agentRun !== undefined) result.loop = context.agentRun;
  return result;
}

/** The caller's agent, or the one `variant` names (the task's `agent.entrypoint`, else `scripted`). */
async function agentOf(options: RunAgentAttemptOptions, loaded: LoadedTask): Promise<{ agent: Agent; variant: string }> {
  if (options.agent !== undefined) return { agent: options.agent, variant: options.variant ?? options.agent.name };
  const loadedAgent = await loadAgent(options.variant ?? loaded.task.agent?.entrypoint ?? 'scripted', {
    task: loaded,
    environment: options.environment ?? process.env,
    ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.scriptFile === undefined ? {} : { scriptFile: options.scriptFile }),
    ...(options.logLlmMessages === undefined ? {} : { logLlmMessages: options.logLlmMessages }),
  });
  return { agent: loadedAgent.agent, variant: loadedAgent.variant };
}
