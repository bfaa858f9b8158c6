import { createHash } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import { FileValidationError, parseYamlSource, readInputFile, sortIssues, toValidationIssues, type ValidationIssue } from '@agentbench/schemas';
import { AgentDefinitionSchema, type ParsedAgentDefinition } from './agent-definition-schema.js';
import { InstalledAgentError } from '../errors/installed-agent-error.js';

/** An installed agent as its definition file says: what to install, how to run it, how to read its output. */
export type AgentDefinition = ParsedAgentDefinition & {
  /** Absolute path of the definition file. */
  file: string;
};

/** Extensions of definition files (a JSON file is YAML too). */
export const DEFINITION_EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * Reads and validates one agent definition file. Throws a `FileValidationError` whose message names
 * the file, the line, the field and what was expected. `sha256`: the sha256 of the file's text when
 * the run started (run.json's `agent_definition`); a file edited since is refused, so one run's
 * attempts never run two agents under one name.
 */
export async function loadAgentDefinition(file: string, options: { sha256?: string } = {}): Promise<AgentDefinition> {
  const absolute = path.resolve(file);
  const issue = (fieldPath: string, message: string, locate?: (field: string) => { line: number; column: number }): ValidationIssue => ({
    file: absolute,
    ...(locate?.(fieldPath) ?? { line: 1, column: 1 }),
    path: fieldPath,
    message,
    severity: 'error',
  });
  const read = await readInputFile(absolute);
  if (read.problem !== undefined) throw new FileValidationError([{ ...issue('', read.problem.message), line: read.problem.line ?? 1, column: read.problem.column ?? 1 }]);
  const sha256 = createHash('sha256').update(read.text).digest('hex');
  if (options.sha256 !== undefined && options.sha256 !== sha256) {
    throw new InstalledAgentError(
      `--agent: ${absolute} changed since the run started (sha256 ${options.sha256.slice(0, 12)}… then, ${sha256.slice(0, 12)}… now); one run's attempts must share one agent: restore the file, or start a new run`,
    );
  }
  const source = parseYamlSource(read.text, absolute);
  if (source.syntaxIssues.length > 0) throw new FileValidationError(source.syntaxIssues);
  if (source.isEmpty) throw new FileValidationError([issue('', 'the file is empty; expected an agent definition: a mapping with name, description, wire_api, command and output')]);
  const parsed = v.safeParse(AgentDefinitionSchema, source.data);
  if (!parsed.success) {
    throw new FileValidationError(sortIssues(toValidationIssues(parsed.issues, { file: absolute, locate: source.locate, schema: AgentDefinitionSchema })));
  }
  const definition = parsed.output;
  const locate = (field: string) => source.locate(field);
  const issues: ValidationIssue[] = [];
  const stem = path.basename(absolute).replace(/\.(ya?ml|json)$/, '');
  if (definition.name !== stem) issues.push(issue('name', `expected "${stem}", the file's name without its extension (an agent is found by its file name), found "${definition.name}"`, locate));
  if (definition.package !== undefined) {
    if (definition.version === undefined) issues.push(issue('version', 'expected the exact version of the package to install (such as "0.171.0"): a definition with a package pins it', locate));
    if (definition.binary === undefined) issues.push(issue('binary', 'expected the executable inside the install folder (such as "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")', locate));
  } else {
    for (const field of ['version', 'integrity', 'binary'] as const) {
      if (definition[field] !== undefined) issues.push(issue(field, `only a definition with a package has a ${field}: add "package" or remove "${field}"`, locate));
    }
    if (definition.runtime !== 'none') issues.push(issue('runtime', 'a runtime is mounted beside an installed package: add "package" or set runtime to "none"', locate));
    const usesInstall = definition.command.some((word) => /\{(binary|agent)\}/.test(word));
    if (usesInstall) issues.push(issue('command', 'names {binary} or {agent}, which only a definition with a package has', locate));
  }
  if (definition.runtime === 'none' && definition.command.some((word) => word.includes('{runtime}'))) {
    issues.push(issue('command', 'names {runtime}, but the definition has no runtime', locate));
  }
  for (const target of Object.keys(definition.files)) {
    if (!target.startsWith('/') && !target.startsWith('{home}') && !target.startsWith('{workspace}')) {
      issues.push(issue(`files.${target}`, 'expected an absolute path in the sandbox, such as "{home}/.codex/config.toml"', locate));
    }
  }
  if (issues.length > 0) throw new FileValidationError(sortIssues(issues));
  return { ...definition, file: absolute };
}
