import { UsageError } from './usage-error.js';

/** `--agent`, on every command that runs an agent (run-agent, run, bench-models, replay). */
export const AGENT_OPTION = {
  type: 'string',
  describe:
    'An installed CLI agent, NAME[@VERSION] (codex, claude-code, qwen-code, command; see ab agents list), run in the sandbox through the attempt\'s model gateway. scripted, llm, oracle and ./paths are the --variant\'s (kept for ab run, where --agent named them)',
} as const;

const VARIANTS = new Set(['scripted', 'llm', 'llm_v0', 'oracle']);

/**
 * What `--agent` names: an installed agent's definition, or (as `ab run`'s `--agent` did before
 * installed agents) one of our own variants, a file or a package path. A bare name that is not a
 * variant is an installed agent; an unknown one is refused by its lookup, with the nearest name.
 */
export function agentArgument(agent: string | undefined, variant: string | undefined): { agent?: string; variant?: string } {
  if (agent === undefined) return variant === undefined ? {} : { variant };
  const isVariant = VARIANTS.has(agent) || /^[./@]|\.m?js$/.test(agent);
  if (isVariant) {
    if (variant !== undefined && variant !== agent) throw new UsageError('--variant and --agent name the same thing: give one');
    return { variant: agent };
  }
  if (variant !== undefined) throw new UsageError(`--agent ${agent} is an installed agent and --variant ${variant} one of ours: give one`);
  return { agent };
}
