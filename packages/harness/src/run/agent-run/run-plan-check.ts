import type { RunPlan } from '@agentbench/schemas';
import { ConfigurationError } from '@agentbench/schemas';

function describe(value: unknown): string {
  return JSON.stringify(value);
}

/** The first field two plans differ in, as `field: was X, now Y`; undefined when they are the same run. */
export function planDifference(recorded: RunPlan, requested: RunPlan): string | undefined {
  const fields: Array<keyof RunPlan> = ['version', 'harness_version', 'variant', 'models', 'runs', 'max_steps', 'retries', 'skip_baseline'];
  for (const field of fields) {
    if (describe(recorded[field]) !== describe(requested[field])) return `${field}: the run has ${describe(recorded[field])}, this command asks for ${describe(requested[field])}`;
  }
  const recordedIds = recorded.tasks.map((task) => task.id);
  const requestedIds = requested.tasks.map((task) => task.id);
  const missing = recordedIds.filter((id) => !requestedIds.includes(id));
  const added = requestedIds.filter((id) => !recordedIds.includes(id));
  if (missing.length > 0 || added.length > 0) {
    const parts = [...(added.length > 0 ? [`adds ${added.join(', ')}`] : []), ...(missing.length > 0 ? [`leaves out ${missing.join(', ')}`] : [])];
    return `tasks: this command ${parts.join(' and ')}`;
  }
  if (describe(recordedIds) !== describe(requestedIds)) return 'tasks: the same tasks in another order';
  return undefined;
}

/** Refuses to resume a run with another plan, naming the field that differs. */
export function assertSamePlan(runDir: string, recorded: RunPlan, requested: RunPlan): void {
  const difference = planDifference(recorded, requested);
  if (difference !== undefined) {
    throw new ConfigurationError('--resume', `${runDir} was started with another plan (${difference}); resume with the run's own options, or start a new run with --out`);
  }
}
