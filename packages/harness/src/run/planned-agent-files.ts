import { createHash } from 'node:crypto';
import path from 'node:path';
import { ConfigurationError, readInputFile, type RunPlan } from '@agentbench/schemas';
import { isAgentDefinitionFile } from '../attempt/prepare-installed-agent.js';

/**
 * The files of the user's that an installed agent's attempts read, as the plan records them: the
 * definition file `--agent ./my-agent.yaml` names and the `--instruction-template`, each with the
 * hash of its text now. A resume that leaves the template out reuses the run's own, read again here,
 * so the plan check refuses a template (or a definition file) edited since the run started: its
 * attempts would otherwise run under another instruction than the first ones.
 */
export async function plannedAgentFiles(
  agent: string | null,
  instructionTemplate: string | undefined,
  recorded: RunPlan | undefined,
): Promise<Pick<RunPlan, 'agent_definition' | 'instruction_template'>> {
  if (agent === null) {
    if (instructionTemplate !== undefined) throw new ConfigurationError('--instruction-template', 'it is the instruction of an installed agent, and this run runs one of ours (its prompt is its own)');
    return {};
  }
  const recordedTemplate = agent === recorded?.agent ? recorded.instruction_template?.file : undefined;
  const template = instructionTemplate ?? recordedTemplate;
  return {
    ...(isAgentDefinitionFile(agent) ? { agent_definition: await plannedFile(agent, '--agent', 'the agent definition') } : {}),
    ...(template === undefined
      ? {}
      : { instruction_template: await plannedFile(template, '--instruction-template', instructionTemplate === undefined ? "the run's instruction template" : 'the instruction template') }),
  };
}

type RunPlanFile = NonNullable<RunPlan['instruction_template']>;

/** The file's absolute path and the sha256 of its text, read as the attempts read it (size-capped, regular files only). */
async function plannedFile(file: string, flag: string, what: string): Promise<RunPlanFile> {
  const absolute = path.resolve(file);
  const read = await readInputFile(absolute);
  if (read.problem !== undefined) throw new ConfigurationError(flag, `cannot read ${what} ${absolute}: ${read.problem.message}`);
  return { file: absolute, sha256: createHash('sha256').update(read.text).digest('hex') };
}
