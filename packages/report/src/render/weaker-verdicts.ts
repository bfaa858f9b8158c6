import type { ReportModel } from '../model/report-model.js';

const SHOWN_TASKS = 10;

/**
 * One sentence on the attempts whose verdict is the test command's exit code (`verdict_basis:
 * exit_code`, a task that names no tests), or undefined when there are none: a process the agent's
 * code runs inside can exit 0 without the tests passing, so such a pass says less than one judged
 * on named tests, and users should see which tasks lack them.
 */
export function describeWeakerVerdicts(model: ReportModel): string | undefined {
  const rows = model.rows.filter((row) => row.verdictBasis === 'exit_code');
  if (rows.length === 0) return undefined;
  const tasks = [...new Set(rows.map((row) => row.taskId))];
  const shown = tasks.slice(0, SHOWN_TASKS).join(', ') + (tasks.length > SHOWN_TASKS ? `, … (${tasks.length} tasks)` : '');
  return `${rows.length} attempt${rows.length === 1 ? ' was' : 's were'} judged by the test command's exit code only, a weaker verdict: ${tasks.length === 1 ? 'its task names' : 'their tasks name'} no tests (validation.expected_failing_tests): ${shown}`;
}
