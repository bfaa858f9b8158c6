import * as v from 'valibot';

/**
 * A change of the agent's that a scanner flags: a rule broken, where, and why in one sentence. A
 * suspicion is not proof (a scanner reads the diff; it cannot know what the code does when it runs).
 * `scanner` names who raised it (a built-in rule or a plugin's scanner); `line` is the line in the
 * file after the change, null when the suspicion is about the file as a whole or the trajectory.
 */
export const SuspicionSchema = v.object({
  rule: v.string(),
  scanner: v.string(),
  file: v.string(),
  line: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  message: v.string(),
});
export type Suspicion = v.InferOutput<typeof SuspicionSchema>;

/** One line: `rule at file:line: message` (the place left out when the suspicion has none). */
export function formatSuspicion(suspicion: Suspicion): string {
  const where = suspicion.file === '' ? '' : ` at ${suspicion.line === null ? suspicion.file : `${suspicion.file}:${suspicion.line}`}`;
  return `${suspicion.rule}${where}: ${suspicion.message}`;
}
