import type { RunStep } from '@agentbench/schemas';
import type { StepResult } from '../../scenario-result.js';

/** A step with a conversation is one; else code when it has code (its input is then not sent), else an agent input. */
export function stepKind(step: RunStep): StepResult['kind'] {
  if (step.conversation !== undefined) return 'conversation';
  return step.code !== undefined ? 'code' : 'input';
}

export function stepName(step: RunStep, index: number): string {
  return step.name ?? `run[${index}]`;
}
