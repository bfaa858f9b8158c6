import { formatSuspicion, type Suspicion } from '@agentbench/schemas';
import { terminalMessage } from './output-options.js';

/** `--scanner`: plugins whose scanners read each attempt's changes beside the built-in rules. */
export const SCANNER_OPTION = {
  type: 'string',
  array: true,
  describe: 'A plugin (path or package name) whose scanners read the agent’s diff and trajectory beside the built-in rules; repeatable. It loads like an evaluator plugin: one that cannot load stops the command',
} as const;

/** `--fail-on-suspicion`: a suspicion fails the attempt. */
export const FAIL_ON_SUSPICION_OPTION = {
  type: 'boolean',
  default: false,
  describe: "Fail an attempt whose changes a scanner flags, as SUSPECTED_TAMPERING (default: each task's evaluation.fail_on_suspicion; without either, suspicions are shown and the verdict stands)",
} as const;

/** Lines for a terminal, one per suspicion (at most 10): the agent's own text in them is escaped and cut. */
export function suspicionLines(suspicions: readonly Suspicion[]): string[] {
  const lines = suspicions.slice(0, 10).map((suspicion) => `suspicion: ${terminalMessage(formatSuspicion(suspicion))}`);
  if (suspicions.length > 10) lines.push(`suspicion: … and ${suspicions.length - 10} more (attempt.json, suspicions)`);
  return lines;
}
