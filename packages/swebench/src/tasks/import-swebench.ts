import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SAFE_IDENTIFIER_PATTERN, validateTaskFile, type ValidationIssue } from '@agentbench/schemas';
import { ImportTargetError } from '../errors/import-target-error.js';
import { readSwebenchFile } from '../records/read-swebench-file.js';
import type { RecordProblem } from '../records/swebench-record.js';
import { buildTaskFolder, type TaskBuildSettings } from './build-task-files.js';
import { TASK_FOLDER_FILES } from './task-folder-files.js';
import type { TestCommandPlan } from './test-command.js';
import { pathExists } from '@agentbench/helpers';

export interface ImportSwebenchOptions extends Omit<TaskBuildSettings, 'suite'> {
  /** A `.jsonl` or `.json` file of SWE-bench instances. */
  file: string;
  /** The suite folder, e.g. `tasks/swe-bench-lite`; its name is the suite name unless `suite` is given. */
  outDir: string;
  suite?: string;
  /** Import only these instance ids. */
  filter?: readonly string[];
  /** Replace task folders that already exist (default: skip them and say so). */
  isOverwriting?: boolean;
}

export interface ImportedTask {
  taskId: string;
  /** Absolute folder of the task. */
  dir: string;
  testRunner: string;
  plan: TestCommandPlan;
  warnings: ValidationIssue[];
}

export interface ImportSwebenchResult {
  suite: string;
  outDir: string;
  imported: ImportedTask[];
  /** Records skipped: missing or wrong fields, an existing folder, a task that would not validate. */
  skipped: RecordProblem[];
  /** `filter` ids the file does not hold. */
  unknownFilterIds: string[];
}

/**
 * Converts SWE-bench instances into task folders under `outDir` (one folder per instance:
 * task.yaml, problem_statement.md, gold.patch, test.patch, swebench.json). Each task is written
 * into a temporary folder beside `outDir`, validated with the task schema, then renamed into
 * place, so `outDir` never holds a half-written task, even if the process dies. A bad record is
 * skipped and reported; it never stops the others.
 */
export async function importSwebench(options: ImportSwebenchOptions): Promise<ImportSwebenchResult> {
  const outDir = path.resolve(options.outDir);
  const suite = options.suite ?? path.basename(outDir);
  if (!SAFE_IDENTIFIER_PATTERN.test(suite)) {
    throw new ImportTargetError(options.outDir, `the suite name "${suite}" (the folder's name) must be letters, digits, "_", "." and "-"`);
  }
  if (await pathExists(outDir)) {
    const isFolder = (await stat(outDir)).isDirectory();
    if (!isFolder) throw new ImportTargetError(options.outDir, 'exists and is not a folder');
  }
  const content = await readSwebenchFile(options.file);
  const filter = options.filter === undefined ? undefined : new Set(options.filter);
  const records = filter === undefined ? content.records : content.records.filter((record) => filter.has(record.instanceId));
  // With a filter, only problems of the chosen ids (or of records without an id) matter.
  const skipped = content.problems.filter((problem) => filter === undefined || problem.instanceId === undefined || filter.has(problem.instanceId));
  const knownIds = new Set([...content.records.map((record) => record.instanceId), ...content.problems.flatMap((problem) => (problem.instanceId === undefined ? [] : [problem.instanceId]))]);
  const unknownFilterIds = options.filter === undefined ? [] : options.filter.filter((id) => !knownIds.has(id));

  const parent = path.dirname(outDir);
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    throw new ImportTargetError(options.outDir, `cannot create the parent folder ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  const staging = await mkdtemp(path.join(parent, `.${suite}.import-`));
  const imported: ImportedTask[] = [];
  try {
    for (const record of records) {
      const location = `${options.file} (${record.instanceId})`;
      const target = path.join(outDir, record.instanceId);
      if (!options.isOverwriting && (await pathExists(target))) {
        skipped.push({ location, instanceId: record.instanceId, missingFields: [], invalidFields: [{ field: 'instance_id', message: `${target} already exists; pass --overwrite to replace it` }] });
        continue;
      }
      const built = buildTaskFolder(record, { ...options, suite });
      const stagedDir = path.join(staging, record.instanceId);
      await mkdir(stagedDir);
      for (const [name, text] of Object.entries(built.files)) await writeFile(path.join(stagedDir, name), text);
      const validation = await validateTaskFile(path.join(stagedDir, TASK_FOLDER_FILES.task));
      if (!validation.success) {
        const errors = validation.issues.filter((issue) => issue.severity === 'error');
        skipped.push({
          location,
          instanceId: record.instanceId,
          missingFields: [],
          invalidFields: errors.map((issue) => ({ field: `task.yaml ${issue.path || '(document)'}`, message: issue.message })),
        });
        continue;
      }
      await mkdir(outDir, { recursive: true });
      if (await pathExists(target)) {
        // Move the old folder aside first: a rename onto a non-empty folder fails.
        await rename(target, path.join(staging, `${record.instanceId}.replaced`));
      }
      await rename(stagedDir, target);
      const warnings = validation.issues.filter((issue) => issue.severity === 'warning').map((issue) => ({ ...issue, file: path.join(target, TASK_FOLDER_FILES.task) }));
      imported.push({ taskId: record.instanceId, dir: target, testRunner: built.profile.testRunner, plan: built.plan, warnings });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { suite, outDir, imported, skipped, unknownFilterIds };
}
