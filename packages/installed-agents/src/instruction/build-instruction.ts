import { createHash } from 'node:crypto';
import path from 'node:path';
import { readInputFile, type Task } from '@agentbench/schemas';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import { shippedFolder } from '../package-folder.js';

/** The instruction an installed agent is given, and the version recorded with the attempt. */
export interface Instruction {
  text: string;
  /** `<template name>@<first 12 hex of the template's sha256>` (`instruction_v1@…` for the shipped one), as the system prompt's `prompt_version`. */
  version: string;
}

export interface BuildInstructionOptions {
  task: Pick<Task, 'id'> & { run: Pick<Task['run'], 'command'>; environment: Pick<Task['environment'], 'workdir'>; validation?: Pick<NonNullable<Task['validation']>, 'expected_failing_tests'> | undefined };
  /** The task's folder, where `problem_statement.md` sits when the task has one. */
  taskFolder?: string;
  /** The tests that failed in the baseline run; default: the task's `validation.expected_failing_tests`. */
  failingTests?: readonly string[];
  /** A template file of the user's, instead of the shipped `instruction-v1.md`. */
  templateFile?: string;
  /**
   * The sha256 of the template's text when the run started (run.json's `instruction_template`): a
   * template edited since is refused, so one run's attempts never mix two instructions.
   */
  templateSha256?: string;
}

const VARIABLES = ['workdir', 'task_id', 'test_command', 'problem_statement', 'failing_tests'] as const;
type Variable = (typeof VARIABLES)[number];
const MAX_PROBLEM_STATEMENT_BYTES = 256 * 1024;

/**
 * The instruction built from the task through a template: `{{name}}` is a value, and
 * `{{#name}}…{{/name}}` a part kept only when that value is not empty. The values: `workdir`,
 * `task_id`, `test_command`, `problem_statement` (problem_statement.md beside the task, when there
 * is one), `failing_tests` (one `- id` line each). A template naming anything else is refused.
 */
export async function buildInstruction(options: BuildInstructionOptions): Promise<Instruction> {
  const templateFile = options.templateFile === undefined ? path.join(shippedFolder('templates'), 'instruction-v1.md') : path.resolve(options.templateFile);
  const template = await readText(templateFile, 'the instruction template');
  const templateSha256 = createHash('sha256').update(template).digest('hex');
  if (options.templateSha256 !== undefined && options.templateSha256 !== templateSha256) {
    throw new InstalledAgentError(
      `--instruction-template: ${templateFile} changed since the run started (sha256 ${options.templateSha256.slice(0, 12)}… then, ${templateSha256.slice(0, 12)}… now); one run's attempts must share one instruction: restore the file, or start a new run`,
    );
  }
  const problemStatement = options.taskFolder === undefined ? '' : await readProblemStatement(options.taskFolder);
  const failingTests = options.failingTests ?? options.task.validation?.expected_failing_tests ?? [];
  const values: Record<Variable, string> = {
    workdir: options.task.environment.workdir,
    task_id: options.task.id,
    test_command: options.task.run.command,
    problem_statement: problemStatement,
    failing_tests: failingTests.map((test) => `- ${test}`).join('\n'),
  };
  const text = renderTemplate(template, values, templateFile);
  const name = options.templateFile === undefined ? 'instruction_v1' : path.basename(templateFile).replace(/\.[^.]*$/, '');
  return { text, version: `${name}@${templateSha256.slice(0, 12)}` };
}

function renderTemplate(template: string, values: Record<Variable, string>, file: string): string {
  const check = (name: string, index: number): Variable => {
    if ((VARIABLES as readonly string[]).includes(name)) return name as Variable;
    const line = template.slice(0, index).split('\n').length;
    throw new InstalledAgentError(`${file}:${line}: unknown template value {{${name}}}; expected one of ${VARIABLES.map((variable) => `{{${variable}}}`).join(', ')}`);
  };
  const withSections = template.replace(/\{\{#([a-z_]+)\}\}\n?([\s\S]*?)\{\{\/\1\}\}\n?/g, (_whole, name: string, body: string, index: number) =>
    values[check(name, index)].trim() === '' ? '' : body,
  );
  const unclosed = /\{\{[#/]([a-z_]+)\}\}/.exec(withSections);
  if (unclosed !== null) throw new InstalledAgentError(`${file}: the section {{${unclosed[0].slice(2, -2)}}} has no matching {{#${unclosed[1]}}}…{{/${unclosed[1]}}}`);
  return withSections.replace(/\{\{([a-z_]+)\}\}/g, (_whole, name: string, index: number) => values[check(name, index)]);
}

async function readProblemStatement(taskFolder: string): Promise<string> {
  const file = path.join(taskFolder, 'problem_statement.md');
  const read = await readInputFile(file, { maxBytes: MAX_PROBLEM_STATEMENT_BYTES });
  if (read.problem === undefined) return read.text.trim();
  if (read.problem.kind === 'not_found') return '';
  throw new InstalledAgentError(`${file}: ${read.problem.message}`);
}

async function readText(file: string, what: string): Promise<string> {
  const read = await readInputFile(file);
  if (read.problem !== undefined) throw new InstalledAgentError(`${file}: cannot read ${what}: ${read.problem.message}`);
  return read.text;
}
