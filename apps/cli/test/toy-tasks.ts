import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadTask } from '@agentbench/schemas';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';

/** The task file of a bundled toy task (tasks/custom-dev/<taskId>/task.yaml). */
export function toyTaskFile(taskId: string): string {
  return path.join(repositoryRoot, 'tasks/custom-dev', taskId, 'task.yaml');
}

/** The unified diff the task's scripted agent applies (its `apply_patch` step): the task's fix. */
export async function scriptedPatchOf(taskFile: string): Promise<string> {
  const patch = (await loadTask(taskFile)).agentScript?.find((step) => step.tool === 'apply_patch')?.args['unified_diff'];
  if (typeof patch !== 'string') throw new Error(`${taskFile}: expected an agent script with an apply_patch step (a unified_diff string)`);
  return patch;
}

export interface ToyTaskCopy {
  /** The bundled toy task to copy. */
  taskId: string;
  /** The folder its task.yaml is written to (made if missing). */
  folder: string;
  /** Another task id and suite for the copy. */
  id?: string;
  suite?: string;
  /** Raises every 60 s limit to this, for a loaded machine (two cores shared) where the verdict, not the clock, is under test. */
  timeoutSec?: number;
  /** Written beside it as gold.patch (the reference patch `--oracle-runs` applies). */
  goldPatch?: string;
}

function replaceOnce(text: string, from: string, to: string, taskId: string): string {
  if (!text.includes(from)) throw new Error(`toy task ${taskId}: expected the line "${from}" in its task.yaml`);
  return text.replace(from, to);
}

/**
 * Copies a bundled toy task into a scratch tasks folder, its repository URL made absolute (the
 * bundled one is relative to tasks/custom-dev/<id>/); returns the copy's task.yaml.
 */
export async function copyToyTask(copy: ToyTaskCopy): Promise<string> {
  let text = await readFile(toyTaskFile(copy.taskId), 'utf8');
  text = replaceOnce(text, 'url: ../../../fixtures/repos/toy_repo.git', `url: ${path.join(repositoryRoot, 'fixtures/repos/toy_repo.git')}`, copy.taskId);
  if (copy.id !== undefined) text = replaceOnce(text, `id: ${copy.taskId}`, `id: ${copy.id}`, copy.taskId);
  if (copy.suite !== undefined) text = replaceOnce(text, 'suite: custom-dev', `suite: ${copy.suite}`, copy.taskId);
  if (copy.timeoutSec !== undefined) text = text.replaceAll('timeout_sec: 60', `timeout_sec: ${copy.timeoutSec}`);
  await mkdir(copy.folder, { recursive: true });
  const file = path.join(copy.folder, 'task.yaml');
  await writeFile(file, text);
  if (copy.goldPatch !== undefined) await writeFile(path.join(copy.folder, 'gold.patch'), copy.goldPatch);
  return file;
}
