import path from 'node:path';
import type { AgentLoopLimits } from '@agentbench/agent-loop';
import { upstreamsFromEnvironment, type AttemptGatewayOptions, type ModelProxyMode, type Upstreams } from '@agentbench/cassette';
import { buildInstruction, findAgentDefinition, installAgent } from '@agentbench/installed-agents';
import type { LoadedTask, ModelConfig } from '@agentbench/schemas';
import { HarnessError } from '../errors/harness-error.js';
import type { InstalledAgentStageOptions } from './stages/installed-agent.js';

/** An installed CLI agent for the attempt (`--agent NAME[@VERSION]`), instead of a `variant`. */
export interface InstalledAgentChoice {
  /** `codex`, `claude-code@2.1.332`, …: a definition's name, and an exact version other than its pinned one; or a definition file of the user's (`./my-agent.yaml`, its version the one it pins). */
  agent: string;
  /** Folders of definition files of the user's (`--definitions`); a file there replaces a shipped agent of the same name. */
  definitionFolders?: readonly string[];
  /** The host cache of installed agents. Default: `$AGENTBENCH_AGENTS_CACHE`, else `~/.cache/agentbench/agents`. */
  cacheFolder?: string;
  /** With a definition file as `agent`: the sha256 of its text when the run started; an edited file is refused (see `loadAgentDefinition`). */
  agentDefinitionSha256?: string;
  /** A template of the user's for the instruction, instead of the shipped one. */
  instructionTemplate?: string;
  /** The sha256 of the template's text when the run started: an edited template is refused (see `buildInstruction`). */
  instructionTemplateSha256?: string;
  /** The generic `command` agent's command line. */
  command?: string;
}

export interface PreparedInstalledAgent {
  stage: InstalledAgentStageOptions;
  /** The record's `model`: the agent's model, its provider's API and the instruction's version as `prompt_version`. */
  modelConfig: ModelConfig;
}

const PROVIDERS = { chat: 'openai', responses: 'openai', anthropic: 'anthropic' } as const;
const UPSTREAM_VARIABLES = { openai: 'OPENAI_BASE_URL (and OPENAI_API_KEY)', anthropic: 'ANTHROPIC_BASE_URL (and ANTHROPIC_API_KEY)' } as const;

/**
 * Everything an installed agent's attempt needs before anything runs: its definition, its
 * installation (npm once, then the checksummed cache), the model, the instruction from the task
 * and the gateway's upstream. A mistake here (an unknown agent, no model, no upstream for its
 * wire API) is thrown, as a bad `--variant` is, and leaves no attempt folder.
 */
export async function prepareInstalledAgent(
  choice: InstalledAgentChoice,
  attempt: { loaded: LoadedTask; limits: AgentLoopLimits; model: string | undefined; environment: NodeJS.ProcessEnv; mode: ModelProxyMode; gateway: Omit<AttemptGatewayOptions, 'budget' | 'upstream' | 'mode'>; upstream: string | undefined },
): Promise<PreparedInstalledAgent> {
  const { name, version, file } = parseAgentChoice(choice.agent);
  const folders = choice.definitionFolders === undefined ? {} : { folders: [...choice.definitionFolders] };
  const definition = await findAgentDefinition(file ?? name, { ...folders, ...(choice.agentDefinitionSha256 === undefined ? {} : { fileSha256: choice.agentDefinitionSha256 }) });
  const model = attempt.model ?? (attempt.environment['MODEL_NAME']?.trim() || undefined);
  if (model === undefined) throw new HarnessError(`--agent ${name}: expected a model for the agent (--model NAME, or MODEL_NAME in the environment)`);
  const provider = PROVIDERS[definition.wire_api];
  const upstream: Upstreams = attempt.upstream ?? upstreamsFromEnvironment(attempt.environment);
  // The attempt gateway records or replays; going live at the first miss is the model proxy's alone.
  if (attempt.mode === 'replay-then-live') throw new HarnessError(`--agent ${name}: an installed agent's attempt replays offline only (--then live is not supported for it yet)`);
  const isReplay = attempt.mode === 'replay';
  if (!isReplay && typeof upstream !== 'string' && upstream[provider] === undefined) {
    throw new HarnessError(`--agent ${name}: it speaks the ${definition.wire_api} API; set ${UPSTREAM_VARIABLES[provider]} for the gateway's upstream`);
  }
  const installation = await installAgent(definition, {
    ...(version === undefined ? {} : { version }),
    ...(choice.cacheFolder === undefined ? {} : { cacheFolder: choice.cacheFolder }),
  });
  const { task } = attempt.loaded;
  const source = {
    taskFolder: path.dirname(attempt.loaded.file),
    ...(choice.instructionTemplate === undefined ? {} : { templateFile: choice.instructionTemplate }),
    ...(choice.instructionTemplateSha256 === undefined ? {} : { templateSha256: choice.instructionTemplateSha256 }),
  };
  // Built now for its version and to refuse a bad template before anything runs; the stage builds it again with the repository's path in the sandbox.
  const instruction = await buildInstruction({ task, ...source });
  const variant = installation.version === undefined ? definition.name : `${definition.name}@${installation.version}`;
  return {
    stage: {
      definition,
      installation,
      variant,
      model,
      instruction: source,
      limits: attempt.limits,
      gateway: { ...attempt.gateway, mode: attempt.mode, upstream },
      ...(choice.command === undefined ? {} : { command: choice.command }),
    },
    modelConfig: { provider, name: model, prompt_version: instruction.version, wire_api: definition.wire_api },
  };
}

/** Whether `--agent` names a definition file (`./my-agent.yaml`) rather than an agent by name. */
export function isAgentDefinitionFile(text: string): boolean {
  return /\.(ya?ml|json)$/i.test(text.trim());
}

/** `NAME` or `NAME@VERSION`; a version is exact (the cache keeps one folder per version). Or a definition file, read as it is. */
export function parseAgentChoice(text: string): { name: string; version?: string; file?: string } {
  if (isAgentDefinitionFile(text)) {
    const file = path.resolve(text.trim());
    return { name: path.basename(file).replace(/\.(ya?ml|json)$/i, ''), file };
  }
  const match = /^([a-z0-9][a-z0-9_-]*)(?:@([0-9A-Za-z.+-]+))?$/.exec(text.trim());
  if (match === null) throw new HarnessError(`--agent: expected NAME or NAME@VERSION (such as codex or claude-code@2.1.332), found ${JSON.stringify(text)}; or a definition file such as ./my-agent.yaml`);
  const [, name = '', version] = match;
  return version === undefined ? { name } : { name, version };
}
