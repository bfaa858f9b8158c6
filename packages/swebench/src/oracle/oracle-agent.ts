import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent, AgentAction, Observation } from '@agentbench/agent-loop';
import { OracleAgentError } from '../errors/oracle-agent-error.js';
import { TASK_FOLDER_FILES } from '../tasks/task-folder-files.js';

/** What `loadAgent` passes (AgentFactoryOptions); the oracle reads only the task's folder and id. */
export interface OracleAgentOptions {
  /** The task (a LoadedTask): its folder holds gold.patch. */
  task?: { dir: string; task?: { id?: string } };
  /** Reads this patch instead of `<task folder>/gold.patch`. */
  goldPatchFile?: string;
  [option: string]: unknown;
}

export const ORACLE_REQUEST_ID = 'oracle-gold-patch';

/**
 * An agent that applies the task's gold patch with `apply_patch` and stops: run on a suite it
 * checks the tasks themselves (the baseline fails, the gold patch passes). The loop runs the
 * tests after the patch and decides; the oracle does not claim success on its own.
 */
export class OracleAgent implements Agent {
  readonly name = 'oracle';
  private hasApplied = false;

  constructor(
    readonly goldPatch: string,
    readonly goldPatchFile: string,
  ) {}

  async nextAction(observation: Observation): Promise<AgentAction> {
    if (!this.hasApplied) {
      this.hasApplied = true;
      return {
        kind: 'tool_calls',
        calls: [{ tool: 'apply_patch', params: { unified_diff: this.goldPatch }, id: ORACLE_REQUEST_ID }],
        message: `applying the gold patch ${this.goldPatchFile}`,
      };
    }
    const failed = observation.lastResults.find((entry) => entry.result.status === 'error');
    if (failed !== undefined) {
      return { kind: 'stop', reason: 'gave_up', message: `the gold patch did not apply: ${failed.result.error?.message ?? 'unknown error'}` };
    }
    return { kind: 'stop', reason: 'done', message: 'the gold patch is applied' };
  }
}

/** Builds the oracle for a task (the factory `loadAgent` calls; also the module's default export). */
export async function createOracleAgent(options: OracleAgentOptions = {}): Promise<OracleAgent> {
  const file = options.goldPatchFile ?? (options.task === undefined ? undefined : path.join(options.task.dir, TASK_FOLDER_FILES.goldPatch));
  if (file === undefined) throw new OracleAgentError('the oracle agent needs a task (its folder holds gold.patch) or a gold patch file');
  let patch: string;
  try {
    patch = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const taskId = options.task?.task?.id;
    throw new OracleAgentError(
      code === 'ENOENT'
        ? `${taskId === undefined ? 'the task' : `task ${taskId}`} has no gold patch: ${file} not found (tasks made by \`ab import-swebench\` have one)`
        : `cannot read the gold patch ${file} (${code ?? String(error)})`,
      { cause: error },
    );
  }
  if (patch.trim() === '') throw new OracleAgentError(`the gold patch ${file} is empty`);
  return new OracleAgent(patch, file);
}

export default createOracleAgent;

/**
 * The oracle for a task, or null when its folder has no gold patch at all (`ab validate-suite
 * --oracle-runs` reports such a task as "no oracle"). An empty or unreadable patch still throws.
 */
export async function createOracleAgentIfAny(options: OracleAgentOptions & { task: { dir: string; task?: { id?: string } } }): Promise<OracleAgent | null> {
  const file = options.goldPatchFile ?? path.join(options.task.dir, TASK_FOLDER_FILES.goldPatch);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  return exists ? createOracleAgent(options) : null;
}
