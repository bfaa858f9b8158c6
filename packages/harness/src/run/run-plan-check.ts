import type { RunPlan } from '@agentbench/schemas';
import { ConfigurationError } from '@agentbench/schemas';

/** The runtime a plan without one ran under: no override, so the engine's default. */
export const DEFAULT_PLAN_RUNTIME = 'runc';

function describe(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * The plan's fields that change verdicts, as compared on resume. A run written before `runtime`
 * was recorded ran without `--runtime`: it reads as runc, so resuming it with `--runtime runsc`
 * is refused and resuming it as it was is not.
 */
function comparedFields(plan: RunPlan): Array<[string, unknown]> {
  return [
    ['version', plan.version],
    ['harness_version', plan.harness_version],
    ['variant', plan.variant],
    ['agent', plan.agent ?? null],
    ['models', plan.models],
    ['runs', plan.runs],
    ['max_steps', plan.max_steps],
    ['retries', plan.retries],
    ['skip_baseline', plan.skip_baseline],
    ['include_unvalidated', plan.include_unvalidated ?? false],
    ['runtime', plan.runtime ?? DEFAULT_PLAN_RUNTIME],
    // Runs from before scanners were planned had neither: read as off and none.
    ['fail_on_suspicion', plan.fail_on_suspicion ?? false],
    ['scanners', plan.scanners ?? []],
  ];
}

/** The first field two plans differ in, as `field: was X, now Y`; undefined when they are the same run. */
export function planDifference(recorded: RunPlan, requested: RunPlan): string | undefined {
  const requestedFields = new Map(comparedFields(requested));
  for (const [field, value] of comparedFields(recorded)) {
    const asked = requestedFields.get(field);
    if (describe(value) !== describe(asked)) return `${field}: the run has ${describe(value)}, this command asks for ${describe(asked)}`;
  }
  const fileDifference = planFileDifference(recorded, requested);
  if (fileDifference !== undefined) return fileDifference;
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

/** The user's files an installed agent reads, under the flag that names them, and what none means. */
const PLAN_FILES = [
  ['agent_definition', '--agent', 'none'],
  ['instruction_template', '--instruction-template', 'none (the shipped instruction)'],
] as const;

/** A file of the plan another or edited since the run started: by path, then by content (its sha256, first 12 hex). */
function planFileDifference(recorded: RunPlan, requested: RunPlan): string | undefined {
  for (const [field, flag, none] of PLAN_FILES) {
    const was = recorded[field] ?? null;
    const now = requested[field] ?? null;
    if (was?.file === now?.file && was?.sha256 === now?.sha256) continue;
    if (was !== null && now !== null && was.file === now.file) {
      return `${flag}: ${was.file} changed since the run started (sha256 ${was.sha256.slice(0, 12)}… then, ${now.sha256.slice(0, 12)}… now)`;
    }
    return `${flag}: the run has ${was?.file ?? none}, this command asks for ${now?.file ?? none}`;
  }
  return undefined;
}

/** Refuses to resume a run with another plan, naming the field that differs. */
export function assertSamePlan(runDir: string, recorded: RunPlan, requested: RunPlan): void {
  const difference = planDifference(recorded, requested);
  if (difference !== undefined) {
    throw new ConfigurationError('--resume', `${runDir} was started with another plan (${difference}); resume with the run's own options, or start a new run with --out`);
  }
}
