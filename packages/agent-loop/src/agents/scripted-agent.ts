import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FileValidationError,
  parseYamlSource,
  ScriptedToolCallListSchema,
  toValidationIssues,
  type LoadedTask,
  type ScriptedToolCall,
} from '@agentbench/schemas';
import * as v from 'valibot';
import type { Agent, AgentAction, AgentFactoryOptions, Observation } from '../contract/agent.js';
import { ConfigurationError } from '@agentbench/schemas';

export interface ScriptedAgentOptions {
  /** The calls to make, in order: `{ tool, args }` as in task.yaml's `agent.script`. */
  script: readonly ScriptedToolCall[];
  /** Where the script came from, for messages. */
  source?: string;
}

/**
 * A deterministic agent: one scripted tool call per action, then it stops with `done`. The
 * loop's checks do the rest (tests after a patch, stop on success). Knows nothing about any task.
 */
export class ScriptedAgent implements Agent {
  readonly name = 'scripted';
  readonly source: string | undefined;
  private readonly script: readonly ScriptedToolCall[];
  private position = 0;

  constructor(options: ScriptedAgentOptions) {
    if (!Array.isArray(options.script) || options.script.length === 0) {
      throw new ConfigurationError('script', 'expected a non-empty list of { tool, args } calls');
    }
    this.script = options.script;
    this.source = options.source;
  }

  async nextAction(_observation: Observation, _signal: AbortSignal): Promise<AgentAction> {
    const call = this.script[this.position];
    if (call === undefined) {
      return { kind: 'stop', reason: 'done', message: `the script${this.source === undefined ? '' : ` (${this.source})`} has no more calls` };
    }
    this.position += 1;
    return { kind: 'tool_calls', calls: [{ tool: call.tool, params: { ...call.args } }] };
  }
}

/** Reads a script file (YAML or JSON list of `{ tool, args }`), with file, line and field in every error. */
export async function loadScriptFile(file: string): Promise<ScriptedToolCall[]> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigurationError('script', `cannot read script file ${absolute}${code === 'ENOENT' ? ': file not found' : ` (${code ?? String(error)})`}`);
  }
  const source = parseYamlSource(text, absolute);
  if (source.syntaxIssues.length > 0) throw new FileValidationError(source.syntaxIssues);
  const parsed = v.safeParse(ScriptedToolCallListSchema, source.data);
  if (!parsed.success) {
    throw new FileValidationError(toValidationIssues(parsed.issues, { file: absolute, locate: source.locate, schema: ScriptedToolCallListSchema }));
  }
  return parsed.output;
}

/**
 * Builds the scripted agent for a task: the `scriptFile` option (`--script`) wins, else the
 * task's `agent.script` / `agent.script_file` (already read by `loadTask`).
 */
export async function createScriptedAgent(options: AgentFactoryOptions): Promise<ScriptedAgent> {
  if (typeof options.scriptFile === 'string') {
    return new ScriptedAgent({ script: await loadScriptFile(options.scriptFile), source: path.resolve(options.scriptFile) });
  }
  const task: LoadedTask | undefined = options.task;
  if (task?.agentScript !== undefined && task.agentScript.length > 0) {
    return new ScriptedAgent({ script: task.agentScript, source: task.agentScriptFile ?? `${task.file}: agent.script` });
  }
  const where = task === undefined ? 'no task was given' : `${task.file} has neither agent.script nor agent.script_file`;
  throw new ConfigurationError('script', `the scripted agent needs a script: ${where}; add one to the task or pass --script FILE`);
}
