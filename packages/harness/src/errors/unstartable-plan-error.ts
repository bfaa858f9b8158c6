import { HarnessError } from './harness-error.js';

/** One task of a plan that its agent cannot start on. */
export interface UnstartableTask {
  taskId: string;
  /** A few words: `no script`, `agent not found`. */
  reason: string;
  message: string;
  /** What to do about it. */
  fix: string;
}

/**
 * `ab run` refused a plan before anything started: some of its tasks can never run with the
 * chosen agent. One line per task, then how to fix it.
 */
export class UnstartablePlanError extends HarnessError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness.unstartable-plan-error');
  override readonly name = 'UnstartablePlanError';
  readonly tasks: readonly UnstartableTask[];

  constructor(variant: string, taskCount: number, tasks: readonly UnstartableTask[]) {
    const fixes = [...new Set(tasks.map((task) => task.fix))];
    const lines = [
      `${tasks.length} of ${taskCount} task${taskCount === 1 ? '' : 's'} cannot start with the ${variant} agent; nothing was run:`,
      ...tasks.map((task) => `  ${task.taskId}: ${task.reason}: ${task.message}${fixes.length === 1 ? '' : ` (fix: ${task.fix})`}`),
      ...(fixes.length === 1 ? [`to fix: ${fixes[0]}; or leave these tasks out (--task FILE, or a suite without them)`] : []),
    ];
    super(lines.join('\n'));
    this.tasks = tasks;
  }
}
