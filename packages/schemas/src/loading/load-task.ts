import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { FileValidationError } from '../errors/file-validation-error.js';
import { ScriptedToolCallListSchema, TaskSchema, type ScriptedToolCall, type Task } from '../task/task-schema.js';
import { MAX_SHOWN_PATH_CHARACTERS, showText, showValue } from '../shared/display-value.js';
import { readYamlFile } from './read-source-file.js';
import { toValidationIssues } from './valibot-issues.js';
import { hasErrors, sortIssues, type ValidationIssue } from '../errors/validation-issue.js';
import type { ValidationResult } from './validation-result.js';
import { pathExists } from '@agentbench/helpers';

/** A validated task with its location and resolved paths. `task.repo.url` stays as written; `repoUrl` is resolved. */
export interface LoadedTask {
  /** Absolute path of task.yaml. */
  file: string;
  /** Absolute folder of task.yaml; relative paths in the task resolve against it. */
  dir: string;
  task: Task;
  /** A remote URL as written, or the absolute local path of a relative/absolute/file: URL. */
  repoUrl: string;
  isLocalRepo: boolean;
  /** The scripted agent's calls, from `agent.script` or the file named by `agent.script_file`. */
  agentScript?: ScriptedToolCall[];
  /** Absolute path of `agent.script_file`, when given. */
  agentScriptFile?: string;
  /** Warnings found while loading (errors make loading fail). */
  warnings: ValidationIssue[];
}

const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const SCP_LIKE = /^[^\s/@:]+@[^\s/:]+:/;

/** Whether a repo URL names a remote (`https://…`, `ssh://…`, `git@host:path`) rather than a local path. */
export function isRemoteRepositoryUrl(url: string): boolean {
  return (URL_SCHEME.test(url) && !url.startsWith('file://')) || SCP_LIKE.test(url);
}

/** A remote URL unchanged, or the absolute local path of a relative path, absolute path or file: URL. */
export function resolveRepositoryUrl(url: string, taskDir: string): { repoUrl: string; isLocalRepo: boolean } {
  if (isRemoteRepositoryUrl(url)) return { repoUrl: url, isLocalRepo: false };
  if (url.startsWith('file://')) return { repoUrl: fileURLToPath(url), isLocalRepo: true };
  return { repoUrl: path.resolve(taskDir, url), isLocalRepo: true };
}

/** Validates a task.yaml and returns every issue (never throws for bad input). */
export async function validateTaskFile(file: string): Promise<ValidationResult<LoadedTask>> {
  const read = await readYamlFile(file, { expected: 'a task: a mapping with task_spec_version, id, repo, environment and run' });
  if (!read.source) return { success: false, issues: read.issues };
  const { source } = read;
  const parsed = v.safeParse(TaskSchema, source.data);
  if (!parsed.success) {
    return { success: false, issues: sortIssues(toValidationIssues(parsed.issues, { file, locate: source.locate, schema: TaskSchema })) };
  }
  const task = parsed.output;
  const absoluteFile = path.resolve(file);
  const dir = path.dirname(absoluteFile);
  const issues: ValidationIssue[] = [];
  const { repoUrl, isLocalRepo } = resolveRepositoryUrl(task.repo.url, dir);
  if (isLocalRepo && !(await pathExists(repoUrl))) {
    issues.push({
      file,
      ...source.locate('repo.url'),
      path: 'repo.url',
      message: `local repository ${showText(repoUrl, MAX_SHOWN_PATH_CHARACTERS)} does not exist (resolved from ${showValue(task.repo.url)}); running this task will fail with GIT_CLONE_FAILED`,
      severity: 'warning',
    });
  }

  let agentScript: ScriptedToolCall[] | undefined = task.agent?.script;
  let agentScriptFile: string | undefined;
  if (task.agent?.script_file !== undefined) {
    agentScriptFile = path.resolve(dir, task.agent.script_file);
    const script = await readYamlFile(agentScriptFile, { expected: 'a list of tool calls ({tool, args})' });
    if (!script.source) {
      const missing = script.issues[0]?.path === '' && script.issues[0]?.message === 'file not found';
      issues.push(
        ...(missing
          ? [{ file, ...source.locate('agent.script_file'), path: 'agent.script_file', message: `script file ${showText(agentScriptFile, MAX_SHOWN_PATH_CHARACTERS)} not found`, severity: 'error' as const }]
          : script.issues),
      );
    } else {
      const parsedScript = v.safeParse(ScriptedToolCallListSchema, script.source.data);
      if (parsedScript.success) agentScript = parsedScript.output;
      else issues.push(...toValidationIssues(parsedScript.issues, { file: agentScriptFile, locate: script.source.locate, schema: ScriptedToolCallListSchema }));
    }
  }

  if (hasErrors(issues)) return { success: false, issues: sortIssues(issues) };
  const value: LoadedTask = { file: absoluteFile, dir, task, repoUrl, isLocalRepo, warnings: issues };
  if (agentScript !== undefined) value.agentScript = agentScript;
  if (agentScriptFile !== undefined) value.agentScriptFile = agentScriptFile;
  return { success: true, value, issues };
}

/** Loads a task.yaml; throws a `FileValidationError` listing every issue when it is not valid. */
export async function loadTask(file: string): Promise<LoadedTask> {
  const result = await validateTaskFile(file);
  if (!result.success) throw new FileValidationError(result.issues);
  return result.value;
}
