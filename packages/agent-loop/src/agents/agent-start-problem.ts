import type { LoadedTask } from '@agentbench/schemas';
import { AgentLoadError } from '../errors/agent-load-error.js';
import { resolveAgentSource } from './load-agent.js';

/** Why an agent cannot start on a task: `reason` in a few words (a report's count), `message` in full, `fix` what to do. */
export interface AgentStartProblem {
  reason: string;
  message: string;
  fix: string;
}

/**
 * What stops `variant` from starting on `task`, known without running any of the agent's code: the
 * scripted agent needs a script, a custom agent a file or package to load from. Undefined when
 * nothing known stops it (what only loading the agent shows, a factory that throws, is found at
 * attempt time). `ab run` asks it for every task before a run starts.
 */
export async function agentStartProblem(variant: string, options: { task: LoadedTask; scriptFile?: string; baseDir?: string }): Promise<AgentStartProblem | undefined> {
  if (variant === 'llm' || variant === 'llm_v0') return undefined;
  if (variant === 'scripted') {
    if (options.scriptFile !== undefined || (options.task.agentScript?.length ?? 0) > 0) return undefined;
    return {
      reason: 'no script',
      message: `the scripted agent needs a script: ${options.task.file} has neither agent.script nor agent.script_file`,
      fix: 'add agent.script to the task, or run it with another agent (--agent llm --models MODEL, or --agent ./my-agent.mjs)',
    };
  }
  try {
    await resolveAgentSource(variant, options.baseDir);
    return undefined;
  } catch (error) {
    if (!AgentLoadError.isInstance(error)) throw error;
    return { reason: 'agent not found', message: error.message, fix: 'name scripted, llm, an existing .js/.mjs file (./path) or an installed package with --agent' };
  }
}
