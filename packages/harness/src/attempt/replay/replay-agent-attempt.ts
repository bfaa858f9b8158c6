import path from 'node:path';
import * as v from 'valibot';
import type { AgentLoopLimits, EventListener } from '@agentbench/agent-loop';
import { CASSETTE_FILE_NAME, checkCassetteRun, readCassette } from '@agentbench/cassette';
import { AttemptRecordSchema, RunRecordSchema, loadTask, readArtifactFile, type AttemptRecord } from '@agentbench/schemas';
import { pathExists, writeJsonAtomic } from '@agentbench/helpers';
import type { SandboxFactory } from '../../plan/sandbox-factory.js';
import { RunDirectoryError } from '../../errors/run-directory-error.js';
import { compareAttemptTrajectories, type AttemptComparison } from './compare-attempt-trajectories.js';
import { defaultReplayFolder } from './replay-folder.js';
import { isAgentDefinitionFile } from '../prepare-installed-agent.js';
import { runAgentAttempt, type AgentAttemptStage, type RunAgentAttemptResult } from '../run-agent-attempt.js';

export interface ReplayAgentAttemptOptions {
  /** The folder of the attempt to replay: `attempt.json`, `run.json` and `cassette.jsonl`. */
  attemptDir: string;
  /** After the first request the cassette does not hold, go on against the live endpoint (replay-then-fork). Default: stop there. */
  thenLive?: boolean;
  /** Artifacts folder of the replay. Default: `replays/` of the attempt's `ab run` folder, else `<out>/replays/` for an attempt in `<out>/agent_runs/<task>/<id>` (see defaultReplayFolder). */
  outDir?: string;
  /** Another agent than the recorded one (a path or package), to see where a changed agent leaves the recording. */
  variant?: string;
  /** Another installed agent (`NAME[@VERSION]`) than the recorded one. Default: the recorded one (`options.agent` of its run.json). */
  agent?: string;
  /** An installed agent's instruction from another template than the recorded one (`options.instruction_template` of its run.json, else the shipped one). */
  instructionTemplate?: string;
  environment?: NodeJS.ProcessEnv;
  createSandbox?: SandboxFactory;
  signal?: AbortSignal;
  onEvent?: EventListener;
  onStage?: (stage: AgentAttemptStage) => void;
}

export interface ReplayAgentAttemptResult {
  original: { runDir: string; record: AttemptRecord };
  replay: RunAgentAttemptResult;
  comparison: AttemptComparison;
}

/**
 * Re-runs a recorded agent attempt with its models served from its cassette: the same task, agent
 * settings and limits, tools run again in a fresh sandbox, offline. The replay is a new attempt
 * folder with its own cassette (marked as a replay) and a `replay.json` naming the original, the
 * mode, the divergence and the comparison; the original's records are not touched.
 */
export async function replayAgentAttempt(options: ReplayAgentAttemptOptions): Promise<ReplayAgentAttemptResult> {
  const attemptDir = path.resolve(options.attemptDir);
  const record = await readRecord(path.join(attemptDir, 'attempt.json'), AttemptRecordSchema, 'an agent attempt record');
  const run = await readRecord(path.join(attemptDir, 'run.json'), RunRecordSchema, 'the run record of an agent attempt');
  const cassette = await readCassette(path.join(attemptDir, CASSETTE_FILE_NAME));
  checkCassetteRun(cassette, { taskId: record.task_id });
  const taskFile = run.options['task_file'];
  if (typeof taskFile !== 'string') throw new RunDirectoryError(path.join(attemptDir, 'run.json'), 'options.task_file: expected the task file the attempt ran');
  const loaded = await loadTask(taskFile);
  if (loaded.task.id !== record.task_id) {
    throw new RunDirectoryError(taskFile, `is now task ${JSON.stringify(loaded.task.id)}, the attempt ran ${JSON.stringify(record.task_id)}`);
  }
  const limits = (run.options['limits'] ?? {}) as Partial<AgentLoopLimits>;
  const mode = options.thenLive === true ? 'replay-then-live' : 'replay';
  const environment = replayEnvironment(record, options.environment ?? process.env, mode === 'replay');
  const recordedAgent = typeof run.options['agent'] === 'string' ? run.options['agent'] : undefined;
  // An installed agent replays as the version it ran (its variant is NAME@VERSION; a definition file of the user's pins its own), unless another agent or variant is asked for.
  const asRecorded = recordedAgent !== undefined && isAgentDefinitionFile(recordedAgent) ? recordedAgent : (record.variant ?? recordedAgent);
  const agent = options.agent ?? (options.variant === undefined && recordedAgent !== undefined ? asRecorded : undefined);
  const recordedTemplate = run.options['instruction_template'];
  const instructionTemplate = options.instructionTemplate ?? (typeof recordedTemplate === 'string' ? recordedTemplate : undefined);
  const variant = options.variant ?? record.variant ?? undefined;
  const { maxSteps, ...otherLimits } = limits;

  const replay = await runAgentAttempt({
    task: loaded,
    outDir: options.outDir ?? (await defaultReplayFolder(attemptDir)),
    environment,
    skipBaseline: run.options['skip_baseline'] === true,
    ...(agent !== undefined ? { installedAgent: { agent, ...(instructionTemplate === undefined ? {} : { instructionTemplate }) } } : variant === undefined ? {} : { variant }),
    ...(record.model?.name === undefined ? {} : { model: record.model.name }),
    ...(maxSteps === undefined ? {} : { maxSteps }),
    limits: otherLimits,
    models: { mode, replayFrom: cassette, repeatIndex: cassette.header.repeat_index, ...(typeof record.model?.['base_url'] === 'string' ? { upstream: record.model['base_url'] } : {}) },
    ...(options.createSandbox === undefined ? {} : { createSandbox: options.createSandbox }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.onStage === undefined ? {} : { onStage: options.onStage }),
  });
  const original = { runDir: attemptDir, record };
  const comparison = await compareAttemptTrajectories(original, replay);
  await writeJsonAtomic(path.join(replay.runDir, 'replay.json'), {
    replay_of: { run_dir: attemptDir, run_id: record.run_id, cassette: cassette.file },
    mode,
    variant: agent ?? variant ?? null,
    divergence: replay.models.divergence ?? null,
    forked_at: replay.models.forkedAt ?? null,
    unserved_exchanges: replay.models.unservedCount,
    comparison,
  });
  return { original, replay, comparison };
}

/**
 * The agent's model settings as recorded (endpoint, API), so the replayed requests are the
 * recorded ones. An offline replay needs no real key: the proxy never forwards it.
 */
function replayEnvironment(record: AttemptRecord, environment: NodeJS.ProcessEnv, isOffline: boolean): NodeJS.ProcessEnv {
  const model = record.model;
  if (model === null || model === undefined) return environment;
  const replayed: NodeJS.ProcessEnv = { ...environment };
  if (typeof model['base_url'] === 'string') replayed['OPENAI_BASE_URL'] = model['base_url'];
  if (typeof model['api'] === 'string') replayed['AGENTBENCH_LLM_API'] = model['api'];
  const key = environment['OPENAI_API_KEY'] ?? (model.provider === 'openrouter' ? environment['OPENROUTER_API_KEY'] : undefined);
  if (key !== undefined) replayed['OPENAI_API_KEY'] = key;
  else if (isOffline) replayed['OPENAI_API_KEY'] = 'offline-replay';
  return replayed;
}

async function readRecord<T extends v.GenericSchema>(file: string, schema: T, expected: string): Promise<v.InferOutput<T>> {
  if (!(await pathExists(file))) throw new RunDirectoryError(file, `not found: expected ${expected} (is the folder an attempt folder, agent_runs/<task>/<id>/?)`);
  // Sandbox-adjacent artifacts: read with a size cap, through their schema (the error names the file and the field).
  return readArtifactFile(file, schema, expected);
}
