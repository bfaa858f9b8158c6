import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FileValidationError } from '../errors/file-validation-error.js';
import { SuiteNotFoundError } from '../errors/suite-not-found-error.js';
import { validateTaskFile, type LoadedTask } from './load-task.js';
import { readInputFile } from './read-input-file.js';
import { hasErrors, sortIssues, type ValidationIssue } from '../errors/validation-issue.js';
import { parseYamlSource } from './yaml-source.js';

export interface LoadedSuite {
  suite: string;
  tasksDir: string;
  /** Sorted by task id. */
  tasks: LoadedTask[];
  /** Warnings of every task of the suite. */
  warnings: ValidationIssue[];
}

interface TaskCandidate {
  file: string;
  /** The folder under tasksDir the task sits in. */
  folderSuite: string;
  /** The `suite` field, when the file has one that is a string. */
  declaredSuite?: string;
  text: string;
}

const TASK_FILE_NAMES = ['task.yaml', 'task.yml'];

async function listDirectories(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

// Every `<tasksDir>/<folder>/<task>/task.yaml`, with the suite its folder and its `suite` field name.
async function findTaskCandidates(tasksDir: string): Promise<TaskCandidate[]> {
  const candidates: TaskCandidate[] = [];
  for (const folder of await listDirectories(tasksDir)) {
    for (const taskFolder of await listDirectories(path.join(tasksDir, folder))) {
      for (const name of TASK_FILE_NAMES) {
        const file = path.join(tasksDir, folder, taskFolder, name);
        const read = await readInputFile(file);
        if (read.problem?.kind === 'not_found') continue;
        // A file that cannot be read (too large, not a regular file) stays a candidate: loading it reports why.
        const text = read.text ?? '';
        const data = read.text === undefined ? undefined : (parseYamlSource(text, file).data as { suite?: unknown } | undefined);
        const candidate: TaskCandidate = { file, folderSuite: folder, text };
        if (typeof data === 'object' && data !== null && typeof data.suite === 'string') candidate.declaredSuite = data.suite;
        candidates.push(candidate);
        break;
      }
    }
  }
  return candidates;
}

async function readCandidates(tasksDir: string, suite: string): Promise<TaskCandidate[]> {
  try {
    return await findTaskCandidates(tasksDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SuiteNotFoundError({
      suite,
      tasksDir,
      availableSuites: [],
      reason: code === 'ENOENT' ? `the tasks folder does not exist${path.isAbsolute(tasksDir) ? '' : ` in ${process.cwd()}`}` : `cannot read the tasks folder: ${code ?? String(error)}`,
      // A newcomer running ab outside the project meets this first: say both ways out.
      ...(code === 'ENOENT' ? { hint: 'name the folder that holds your suites with --tasks DIR, or run ab from the project root (the folder with tasks/)' } : {}),
    });
  }
}

function suitesOf(candidates: readonly TaskCandidate[]): string[] {
  return [...new Set(candidates.flatMap((candidate) => [candidate.folderSuite, candidate.declaredSuite ?? candidate.folderSuite]))].sort();
}

/** The suites under `tasksDir`: folder names holding `<task>/task.yaml`, and the `suite` fields of those tasks. */
export async function listSuites(tasksDir: string): Promise<string[]> {
  return suitesOf(await findTaskCandidates(tasksDir));
}

/**
 * Loads every task of a suite: `<tasksDir>/<suite>/<task>/task.yaml`, plus tasks elsewhere under
 * `tasksDir` whose `suite` field names it. Throws `SuiteNotFoundError` (listing the suites that exist)
 * when there is none, and one `FileValidationError` with the issues of every invalid task, including
 * duplicate task ids.
 */
export async function loadSuite(tasksDir: string, suite: string): Promise<LoadedSuite> {
  const candidates = await readCandidates(tasksDir, suite);
  const members = candidates.filter((candidate) => candidate.folderSuite === suite || candidate.declaredSuite === suite);
  if (members.length === 0) throw new SuiteNotFoundError({ suite, tasksDir, availableSuites: suitesOf(candidates) });

  const issues: ValidationIssue[] = [];
  const tasks: LoadedTask[] = [];
  const firstFileById = new Map<string, string>();
  for (const member of members) {
    const result = await validateTaskFile(member.file);
    issues.push(...result.issues);
    if (!result.success) continue;
    const loaded = result.value;
    const locate = parseYamlSource(member.text, member.file).locate;
    if (loaded.task.suite !== suite) {
      issues.push({
        file: member.file,
        ...locate('suite'),
        path: 'suite',
        message: `task is in the folder of suite "${suite}" but declares suite "${loaded.task.suite}"`,
        severity: 'warning',
      });
    }
    const firstFile = firstFileById.get(loaded.task.id);
    if (firstFile !== undefined) {
      issues.push({
        file: member.file,
        ...locate('id'),
        path: 'id',
        message: `duplicate task id "${loaded.task.id}": also defined in ${firstFile}`,
        severity: 'error',
      });
      continue;
    }
    firstFileById.set(loaded.task.id, member.file);
    tasks.push(loaded);
  }
  if (hasErrors(issues)) throw new FileValidationError(sortIssues(issues));
  tasks.sort((left, right) => (left.task.id < right.task.id ? -1 : left.task.id > right.task.id ? 1 : 0));
  return { suite, tasksDir, tasks, warnings: sortIssues(issues) };
}
