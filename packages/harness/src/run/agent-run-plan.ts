import path from 'node:path';
import { ConfigurationError, HARNESS_VERSION, loadSuite, loadTask, RUN_PLAN_VERSION, type LoadedTask, type RunPlan, type RunRecord } from '@agentbench/schemas';
import { RunDirectoryError } from '../errors/run-directory-error.js';
import { DEFAULT_SKIP_LABELS } from '../plan/default-skip-labels.js';
import { modelFolderName, readModelList } from '../plan/model-list.js';
import type { AgentRunOptions, PlannedAttempt } from './agent-run-types.js';
import { plannedAgentFiles } from './planned-agent-files.js';
import { readRunJson, RUN_JSON_FILE } from './run-json.js';

export function wholeNumber(value: number | undefined, fallback: number, name: string, minimum: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < minimum) throw new ConfigurationError(name, `expected a whole number ≥ ${minimum}, found ${String(value)}`);
  return resolved;
}

export async function readRunRecord(runDir: string): Promise<RunRecord & { plan: RunPlan }> {
  const record = await readRunJson(runDir, (problem) => new RunDirectoryError(runDir, `cannot resume: not an ab run folder (${problem}; expected the folder an \`ab run --out\` wrote, holding run.json)`));
  if (record.plan === undefined) throw new RunDirectoryError(path.join(runDir, RUN_JSON_FILE), 'cannot resume: not the run.json of an ab run (it has no plan)');
  return record as RunRecord & { plan: RunPlan };
}

export async function loadRunTasks(options: AgentRunOptions, recorded: RunPlan | undefined): Promise<readonly LoadedTask[]> {
  const named = [options.task, options.suite, options.tasks].filter((value) => value !== undefined).length;
  if (named === 0 && recorded !== undefined) return Promise.all(recorded.tasks.map((task) => loadTask(task.file)));
  if (named !== 1) throw new ConfigurationError('tasks', `name exactly one of a task file, a suite or loaded tasks (found ${named})`);
  if (options.tasks !== undefined) return options.tasks;
  if (options.task !== undefined) return [await loadTask(options.task)];
  const suite = await loadSuite(options.tasksDir ?? 'tasks', options.suite as string);
  const skipped = options.includeFlaky === true ? [] : DEFAULT_SKIP_LABELS;
  return suite.tasks.filter((loaded) => !loaded.task.labels.some((label) => skipped.includes(label)));
}

/** The plan the options ask for; on a resume, what they leave unsaid is the recorded plan's. */
export async function planOf(options: AgentRunOptions, tasks: readonly LoadedTask[], recorded: RunPlan | undefined): Promise<RunPlan> {
  const models = options.models === undefined ? (recorded?.models ?? []) : typeof options.models === 'string' ? await readModelList(options.models) : [...options.models];
  const agent = agentOfPlan(options, recorded, models);
  return {
    version: RUN_PLAN_VERSION,
    tasks: tasks.map((loaded) => ({ id: loaded.task.id, file: path.resolve(loaded.file) })),
    models,
    runs: wholeNumber(options.runs, recorded?.runs ?? 1, '--runs', 1),
    ...agent,
    ...(await plannedAgentFiles(agent.agent ?? null, options.instructionTemplate, recorded)),
    max_steps: options.maxSteps === undefined ? (recorded?.max_steps ?? null) : wholeNumber(options.maxSteps, 1, '--max-steps', 1),
    retries: wholeNumber(options.retries, recorded?.retries ?? 2, '--retries', 0),
    skip_baseline: options.skipBaseline ?? recorded?.skip_baseline ?? true,
    include_unvalidated: options.includeUnvalidated ?? recorded?.include_unvalidated ?? false,
    runtime: options.runtime ?? recorded?.runtime ?? null,
    fail_on_suspicion: options.failOnSuspicion ?? recorded?.fail_on_suspicion ?? false,
    scanners: options.scanners === undefined ? (recorded?.scanners ?? []) : [...options.scanners],
    harness_version: HARNESS_VERSION,
  };
}

/** The plan's agent: an installed agent (named by itself in the folders and tables), else the variant. */
function agentOfPlan(options: AgentRunOptions, recorded: RunPlan | undefined, models: readonly string[]): Pick<RunPlan, 'variant' | 'agent'> {
  const agent = options.agent ?? (options.variant === undefined ? recorded?.agent : undefined) ?? null;
  if (agent !== null) return { variant: agent.split('@')[0] ?? agent, agent };
  return { variant: options.variant ?? recorded?.variant ?? (models.length === 0 ? 'scripted' : 'llm') };
}

/** Attempts in the order they start: repeats outermost and models taking turns, so a stopped run has some of every model. */
export function plannedAttempts(plan: RunPlan, tasks: readonly LoadedTask[], runDir: string): PlannedAttempt[] {
  const models: Array<string | null> = plan.models.length === 0 ? [null] : plan.models;
  const attempts: PlannedAttempt[] = [];
  for (let repeat = 1; repeat <= plan.runs; repeat += 1) {
    for (const task of tasks) {
      for (const model of models) {
        const label = model ?? plan.variant;
        const folderName = modelFolderName(label);
        attempts.push({ attemptId: `${folderName}/${task.task.id}/r${repeat}`, task, model, label, folder: path.join(runDir, folderName), repeat });
      }
    }
  }
  return attempts;
}
