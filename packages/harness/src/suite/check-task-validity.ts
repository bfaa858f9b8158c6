import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Agent } from '@agentbench/agent-loop';
import { AgentBenchError, type LoadedTask, type TaskValidity } from '@agentbench/schemas';
import { appendJsonLine, writeJsonAtomic } from '@agentbench/helpers';
import { relativeToRun } from '../artifacts/attempt-paths.js';
import { TASK_VALIDITY_FILE, taskValidityFolder } from '../artifacts/suite-validity-file.js';
import { executeAttempt } from '../attempt/execute-attempt.js';
import type { SandboxFactory } from '../plan/sandbox-factory.js';
import { runAgentAttempt } from '../attempt/run-agent-attempt.js';
import type { MirrorRule } from '../git/mirror-map.js';
import type { RepoCache } from '../git/repo-cache.js';
import { isUnjudged, oracleRunOutcome } from './oracle-run-outcome.js';
import { describeTaskValidity, taskValidityVerdict } from './task-validity-verdict.js';

/**
 * Builds the agent that applies a task's reference patch, or returns null when the task has none
 * (`ab validate-suite` passes the swebench oracle, which reads `gold.patch`). Called once per run:
 * an agent keeps state. A throw (an empty or unreadable patch) counts as an oracle run that failed.
 */
export type ReferenceAgentFactory = (task: LoadedTask) => Promise<Agent | null>;

export interface CheckTaskValidityOptions {
  /** Oracle runs and baseline runs, N of each. */
  runs: number;
  /** The suite run's folder; the runs go to `validity/<task_id>/`. */
  runDir: string;
  runId: string;
  referenceAgentFor: ReferenceAgentFactory;
  mirrors: readonly MirrorRule[];
  cache: RepoCache;
  signal?: AbortSignal;
  createSandbox?: SandboxFactory;
  env?: Record<string, string>;
  maxOutputBytes?: number;
}


/**
 * `--oracle-runs N` for one task: N baseline runs (the tests must fail as the task expects every
 * time) and N oracle runs (the reference patch applied by an agent in the post-setup sandbox and
 * judged by the final verdict like any agent's diff: it must pass every time), each through the
 * one attempt pipeline (`executeAttempt`, `runAgentAttempt`). The records go to
 * `validity/<task_id>/attempts.jsonl` (baselines) and `validity/<task_id>/oracle/agent_runs/…`;
 * workspaces are not kept. The verdict is written to `validity/<task_id>/task-validity.json`.
 */
export async function checkTaskValidity(loaded: LoadedTask, options: CheckTaskValidityOptions): Promise<TaskValidity> {
  const taskId = loaded.task.id;
  const folder = taskValidityFolder(options.runDir, taskId);
  const runFolders: string[] = [];
  const reasons: string[] = [];
  let baselineFailures = 0;
  let oraclePasses = 0;
  let oracleRuns = 0;
  let oracleNotApplied = 0;
  let erroredRuns = 0;
  let baselineSetupFailures = 0;
  let baselineTimeouts = 0;
  let hasOracle = true;
  const shared = {
    mirrors: options.mirrors,
    cache: options.cache,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  };

  for (let run = 1; run <= options.runs; run += 1) {
    const runFolder = path.join(folder, `baseline-${run}`);
    const outcome = await executeAttempt(loaded, 'baseline', {
      ...shared,
      paths: { runDir: options.runDir, logDir: path.join(runFolder, 'logs'), workspaceDir: path.join(runFolder, 'workspace') },
      runId: options.runId,
      // Each run is one observation: the baseline's own flaky rerun would hide what we count.
      flakyRerun: 'never',
      ...(options.env === undefined ? {} : { env: options.env }),
      // Each run is removed once recorded: it is neither sanitized nor measured first.
      discardWorkspace: true,
    });
    await appendJsonLine(path.join(folder, 'attempts.jsonl'), outcome.record);
    await rm(path.join(runFolder, 'workspace'), { recursive: true, force: true });
    runFolders.push(relativeToRun(options.runDir, runFolder));
    if (isUnjudged(outcome.record)) erroredRuns += 1;
    else if (outcome.record.result.failure_reason === null) baselineFailures += 1;
    else {
      const reason = outcome.record.result.failure_reason;
      if (reason === 'SETUP_FAILED' || reason === 'SETUP_TIMEOUT') baselineSetupFailures += 1;
      if (reason === 'TIMEOUT') baselineTimeouts += 1;
      reasons.push(`baseline ${run}: ${reason}`);
    }
  }

  for (let run = 1; run <= options.runs; run += 1) {
    let agent: Agent | null;
    try {
      agent = await options.referenceAgentFor(loaded);
    } catch (error) {
      if (!AgentBenchError.isInstance(error)) throw error;
      oracleRuns += 1;
      reasons.push(`oracle ${run}: ${error.message}`);
      continue;
    }
    if (agent === null) {
      hasOracle = false;
      break;
    }
    oracleRuns += 1;
    // The run index keys the oracle's model exchanges (if any), so its runs stay independent observations.
    const result = await runAgentAttempt({ ...shared, task: loaded, agent, skipBaseline: true, outDir: path.join(folder, 'oracle'), models: { repeatIndex: run - 1 } });
    await rm(path.join(result.runDir, 'workspace'), { recursive: true, force: true });
    runFolders.push(relativeToRun(options.runDir, result.runDir));
    const outcome = oracleRunOutcome(result);
    if (outcome.kind === 'passed') oraclePasses += 1;
    else if (outcome.kind === 'errored') erroredRuns += 1;
    else {
      if (outcome.kind === 'not_applied') oracleNotApplied += 1;
      reasons.push(`oracle ${run}: ${outcome.reason}`);
    }
  }

  const counts = { runs: options.runs, hasOracle, oraclePasses, oracleNotApplied, baselineFailures, erroredRuns, baselineSetupFailures, baselineTimeouts };
  const verdict = taskValidityVerdict(counts);
  const validity: TaskValidity = {
    task_id: taskId,
    verdict,
    runs: options.runs,
    has_oracle: hasOracle,
    oracle_passes: oraclePasses,
    oracle_runs: oracleRuns,
    baseline_failures: baselineFailures,
    baseline_runs: options.runs,
    errored_runs: erroredRuns,
    reasons,
    run_folders: runFolders,
    message: describeTaskValidity(verdict, counts),
  };
  await writeJsonAtomic(path.join(folder, TASK_VALIDITY_FILE), validity);
  return validity;
}
