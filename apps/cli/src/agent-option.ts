import path from 'node:path';
import { UsageError } from './usage-error.js';

/** `--agent`, on every command that runs an agent (run-agent, run, bench-models, replay). */
export const AGENT_OPTION = {
  type: 'string',
  describe:
    'An installed CLI agent, NAME[@VERSION] (codex, claude-code, qwen-code, command; see ab agents list) or a definition file of yours (./my-agent.yaml, see docs/agents.md), run in the sandbox through the attempt\'s model gateway. scripted, llm, oracle and ./paths to .js are the --variant\'s (kept for ab run, where --agent named them)',
} as const;

/** `--instruction-template`, beside `--agent`. */
export const INSTRUCTION_TEMPLATE_OPTION = {
  type: 'string',
  describe:
    "With an installed agent: build its instruction from this template (text with {{workdir}}, {{task_id}}, {{test_command}}, {{problem_statement}}, {{failing_tests}}; see docs/agents.md) instead of the shipped one; its hash is recorded as the attempt's prompt_version",
} as const;

/** A definition file given to `--agent`: it ends in .yaml, .yml or .json. */
const DEFINITION_FILE = /\.(ya?ml|json)$/i;

const VARIANTS = new Set(['scripted', 'llm', 'llm_v0', 'oracle']);

/**
 * What `--agent` names: an installed agent's definition, or (as `ab run`'s `--agent` did before
 * installed agents) one of our own variants, a file or a package path. A bare name that is not a
 * variant is an installed agent; an unknown one is refused by its lookup, with the nearest name.
 */
export function agentArgument(
  agent: string | undefined,
  variant: string | undefined,
  instructionTemplate?: string,
  { isResume = false }: { isResume?: boolean } = {},
): { agent?: string; variant?: string; instructionTemplate?: string } {
  const template = instructionTemplate === undefined ? {} : { instructionTemplate: path.resolve(instructionTemplate) };
  if (agent === undefined) {
    // A resume's agent is the run's: the harness checks the template against it and against the run's own template.
    if (isResume && variant === undefined) return template;
    if (instructionTemplate !== undefined) throw new UsageError('--instruction-template is the instruction of an installed agent: give --agent NAME or --agent ./my-agent.yaml with it');
    return variant === undefined ? {} : { variant };
  }
  // Resolved here: the run records it, and a replay or a resume started elsewhere finds it.
  if (DEFINITION_FILE.test(agent)) {
    if (variant !== undefined) throw new UsageError(`--agent ${agent} is an installed agent and --variant ${variant} one of ours: give one`);
    return { agent: path.resolve(agent), ...template };
  }
  const isVariant = VARIANTS.has(agent) || /^[./@]|\.m?js$/.test(agent);
  if (isVariant) {
    if (variant !== undefined && variant !== agent) throw new UsageError('--variant and --agent name the same thing: give one');
    if (instructionTemplate !== undefined) throw new UsageError(`--instruction-template is the instruction of an installed agent; --agent ${agent} is one of ours (its prompt is its own)`);
    return { variant: agent };
  }
  if (variant !== undefined) throw new UsageError(`--agent ${agent} is an installed agent and --variant ${variant} one of ours: give one`);
  return { agent, ...template };
}
