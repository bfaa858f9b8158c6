import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AgentLoopLimits, AgentLoopResult } from '@agentbench/agent-loop';
import { ATTEMPT_RECORD_SCHEMA_VERSION, type AttemptDetails, type AttemptRecord, type FailureReason, type ModelConfig } from '@agentbench/schemas';
import { attributeFailure } from '@agentbench/scoring';
import { relativeToRun } from '../../artifacts/attempt-paths.js';
import { appendAttemptRecord } from '../../artifacts/attempts-file.js';
import { writeRunJson } from '../../artifacts/run-directory.js';
import type { VerdictOutcome } from '../../verdict/final-verdict.js';
import type { ArtifactWriteError } from '../../errors/artifact-write-error.js';
import type { AttemptContext } from '../attempt-context.js';
import type { AttemptMode, AttemptOutcome } from '../attempt-outcome.js';
import type { PipelineEnd } from '../attempt-context.js';

type CommonRecordFields = Omit<AttemptRecord, 'baseline_validation' | 'result' | 'artifact_paths' | 'variant' | 'model' | 'limits' | 'metrics'>;

function commonRecordFields(context: AttemptContext, end: PipelineEnd): CommonRecordFields {
  const { task } = context;
  return {
    schema_version: ATTEMPT_RECORD_SCHEMA_VERSION,
    run_id: context.runId,
    task_id: task.id,
    suite: task.suite,
    timestamp_start: end.startedAt.toISOString(),
    timestamp_end: end.endedAt.toISOString(),
    duration_sec: Math.max(0, (end.endedAt.getTime() - end.startedAt.getTime()) / 1000),
    task_spec_version: task.task_spec_version,
    harness_min_version: task.harness_min_version ?? null,
    labels: [...task.labels],
    truncated_logs: context.truncatedLogs.list(),
    ...context.sandboxFacts,
  };
}

/**
 * Who caused a failure, and on what evidence: the stage the attempt ended in, whether the
 * harness's own signal aborted it, and whether the model proxy saw the LLM endpoint fail. All
 * three are the harness's own observations, never the agent's word, so an agent that kills its
 * sandbox, raises an interrupt or declares an LLM error cannot pass its failure off as
 * infrastructure.
 */
function failureAttribution(context: AttemptContext, reason: FailureReason | null): Pick<AttemptRecord, 'failure_class' | 'failure_stage' | 'failure_cause'> {
  if (reason === null) return {};
  const { failureClass, cause } = attributeFailure(reason, {
    stage: context.currentStage,
    isHarnessAbort: context.isHarnessAbort,
    endpointFailure: context.endpointFailure ?? null,
    networkFailure: context.networkFailure ?? null,
  });
  return { failure_class: failureClass, failure_stage: context.currentStage, failure_cause: cause };
}

/** The record of a baseline or run-task attempt. */
export function taskAttemptRecord(context: AttemptContext, mode: AttemptMode, end: PipelineEnd): AttemptRecord {
  const isBaseline = mode === 'baseline';
  const isSuccess = end.failureReason === null;
  return {
    ...commonRecordFields(context, end),
    baseline_validation: {
      attempted: isBaseline,
      failed_as_expected: isBaseline && isSuccess,
      exit_code: isBaseline ? (context.testExitCode ?? null) : null,
      failure_reason: isBaseline ? end.failureReason : null,
    },
    result: { passed: isSuccess, exit_code: context.lastExitCode ?? -1, failure_reason: end.failureReason, stop_reason: null },
    artifact_paths: { ...context.artifacts },
    variant: isBaseline ? 'baseline' : 'run_task',
    model: null,
    limits: { timeout_sec: context.task.environment.timeout_sec, tool_timeout_sec: null, max_steps: null, max_time_sec: null },
    metrics: { sandbox_time_ms: Math.round(context.sandboxMs) },
    ...failureAttribution(context, end.failureReason),
  };
}

/** The record of an agent attempt: the baseline gate's result, the loop's figures, the verdict's. */
export function agentAttemptRecord(context: AttemptContext, agent: { variant: string; limits: AgentLoopLimits; model: ModelConfig | null }, end: PipelineEnd): AttemptRecord {
  const loop = context.agentRun;
  const verdict = context.verdict;
  const passed = end.failureReason === null && verdict?.passed === true;
  const patchFiles = (loop?.patches ?? []).flatMap((patch) => (patch.patchPath === undefined ? [] : [patch.patchPath]));
  const artifactPaths = { ...context.artifacts };
  if (patchFiles.length > 0) artifactPaths['patch_files'] = patchFiles.join(',');
  const hasModel = agent.model !== null;
  const failureReason = passed ? null : (end.failureReason ?? 'TESTS_FAILED');
  return {
    ...commonRecordFields(context, end),
    baseline_validation: context.baseline,
    result: {
      passed,
      exit_code: context.lastExitCode ?? -1,
      failure_reason: failureReason,
      stop_reason: loop?.stopReason ?? null,
      ...(verdict === undefined || verdict.tamperedPaths.length === 0 ? {} : { tampered_paths: verdict.tamperedPaths }),
      ...(verdict === undefined ? {} : { verdict_basis: verdict.basis }),
    },
    artifact_paths: artifactPaths,
    variant: agent.variant,
    model: agent.model,
    limits: { timeout_sec: context.task.environment.timeout_sec, tool_timeout_sec: null, max_steps: agent.limits.maxSteps, max_time_sec: agent.limits.maxTimeSec },
    metrics: {
      steps: loop?.steps ?? 0,
      tool_calls: loop?.steps ?? 0,
      // A scripted agent has no model: its token and cost figures are absent, not zero.
      input_tokens: hasModel && loop !== undefined ? loop.tokens.input : null,
      output_tokens: hasModel && loop !== undefined ? loop.tokens.output : null,
      cost_usd: loop?.costUsd ?? null,
      sandbox_time_ms: Math.round(context.sandboxMs),
      ...(context.verdictMs === undefined ? {} : { final_test_ms: Math.round(context.verdictMs) }),
    },
    ...failureAttribution(context, failureReason),
    ...(context.suspicions === undefined ? {} : { suspicions: context.suspicions }),
    ...(context.verdictSetup === undefined ? {} : { verdict_setup: context.verdictSetup }),
  };
}

/** What the record stage of an agent attempt needs beside the context. */
export interface AgentRecordOptions {
  variant: string;
  limits: AgentLoopLimits;
  model: ModelConfig | null;
  /**
   * The attempt's model proxy, closed by the record stage (so a request the client gave up on is
   * counted) before its last endpoint failure is read: the evidence that makes an LLM_ERROR `infra`.
   */
  models: { close(): Promise<void>; readonly lastEndpointFailure: string | undefined; readonly cassetteFile: string };
  /** Completes the record before it is written (to `attempt.json` and `attempts.jsonl`), so every copy agrees. */
  completeRecord?: (record: AttemptRecord) => AttemptRecord;
}

/** How an agent attempt ended, as its record stage left it: the context is not read after it. */
export interface AgentAttemptEnd {
  record: AttemptRecord;
  end: PipelineEnd;
  loop?: AgentLoopResult;
  verdict?: VerdictOutcome;
  writeFailure?: ArtifactWriteError;
  notes: string[];
}

/**
 * An agent attempt's last stage: the model proxy closes, the record is built, completed by the
 * caller, and written to `attempt.json` and appended to `attempts.jsonl`.
 */
export async function recordAgentAttempt(context: AttemptContext, options: AgentRecordOptions, end: PipelineEnd): Promise<AgentAttemptEnd> {
  await options.models.close();
  context.endpointFailure = options.models.lastEndpointFailure;
  context.artifact('cassette', options.models.cassetteFile);
  const built = agentAttemptRecord(context, options, end);
  const record = options.completeRecord === undefined ? built : options.completeRecord(built);
  const { runDir } = context.paths;
  const attemptFile = path.join(runDir, 'attempt.json');
  record.artifact_paths['attempt'] = relativeToRun(runDir, attemptFile);
  await writeRunJson(attemptFile, record);
  await appendAttemptRecord(path.join(runDir, 'attempts.jsonl'), record);
  return {
    record,
    end,
    notes: [...context.notes],
    ...(context.agentRun === undefined ? {} : { loop: context.agentRun }),
    ...(context.verdict === undefined ? {} : { verdict: context.verdict }),
    ...(context.writeFailure === undefined ? {} : { writeFailure: context.writeFailure }),
  };
}

/** A baseline or run-task attempt's outcome, with its details written to `logs/attempt.json` (best effort). */
export async function taskAttemptOutcome(context: AttemptContext, mode: AttemptMode, end: PipelineEnd): Promise<AttemptOutcome> {
  const record = taskAttemptRecord(context, mode, end);
  const outcome: AttemptOutcome = {
    record,
    failureReason: end.failureReason,
    isSuccess: end.failureReason === null,
    stage: context.currentStage,
    message: end.message,
    stages: context.stages,
    mismatches: context.mismatches,
    failingTests: context.failingTests,
    ...(context.baselinePassingKeys === undefined ? {} : { passingTestKeys: context.baselinePassingKeys }),
    setupCommands: context.setupCommands,
    timings: { totalMs: end.totalMs, sandboxMs: context.sandboxMs, gitMs: context.gitMs },
  };
  if (context.commitSha !== undefined) outcome.commitSha = context.commitSha;
  if (context.repositorySource !== undefined) outcome.repositorySource = context.repositorySource;
  if (context.notes.length > 0) outcome.workspaceNote = context.notes.join('; ');
  await writeAttemptDetails(context, mode, outcome).catch(() => undefined);
  return outcome;
}

async function writeAttemptDetails(context: AttemptContext, mode: AttemptMode, outcome: AttemptOutcome): Promise<void> {
  const file = path.join(context.paths.logDir, 'attempt.json');
  const details: AttemptDetails = {
    task_id: context.task.id,
    task_file: context.loaded.file,
    mode,
    failure_reason: outcome.failureReason,
    stage: outcome.stage,
    message: outcome.message,
    repository: { url: context.loaded.repoUrl, commit: context.task.repo.commit, commit_sha: outcome.commitSha ?? null, source: outcome.repositorySource ?? null },
    setup_commands: outcome.setupCommands,
    stages: outcome.stages.map((stage) => ({ ...stage, durationMs: Math.round(stage.durationMs) })),
    mismatches: outcome.mismatches,
    failing_tests: outcome.failingTests,
    ...(outcome.workspaceNote === undefined ? {} : { workspace_note: outcome.workspaceNote }),
    timings_ms: { total: Math.round(outcome.timings.totalMs), sandbox: Math.round(outcome.timings.sandboxMs), git: Math.round(outcome.timings.gitMs) },
  };
  await writeFile(file, `${JSON.stringify(details, null, 2)}\n`);
  outcome.record.artifact_paths['attempt_details'] = relativeToRun(context.paths.runDir, file);
}
