import type { TrajectoryDivergence, ToolCallStep } from './run-comparison.js';
import type { ToolCallTrajectory } from './read-tool-calls.js';

/** Tool calls of each side kept for the side-by-side view. */
export const MAX_TRAJECTORY_STEPS = 200;

function shown(call: ToolCallTrajectory['calls'][number] | undefined): ToolCallStep | null {
  if (call === undefined) return null;
  const { fullArguments: _full, ...step } = call;
  return step;
}

/**
 * The first tool call (name, then arguments) at which two trajectories differ; a trajectory that
 * ends first differs at its end (that side is null). Identical trajectories have no index: the
 * outcome changed for another reason (the model's final answer, flaky tests).
 */
export function firstDivergence(
  pair: { taskId: string; repeat: number; outcome: 'regression' | 'fix' },
  trajectoryA: ToolCallTrajectory,
  trajectoryB: ToolCallTrajectory,
): TrajectoryDivergence {
  const base = {
    ...pair,
    trajectoryA: trajectoryA.calls.slice(0, MAX_TRAJECTORY_STEPS).map((call) => shown(call) as ToolCallStep),
    trajectoryB: trajectoryB.calls.slice(0, MAX_TRAJECTORY_STEPS).map((call) => shown(call) as ToolCallStep),
    omittedStepsA: Math.max(0, trajectoryA.calls.length - MAX_TRAJECTORY_STEPS),
    omittedStepsB: Math.max(0, trajectoryB.calls.length - MAX_TRAJECTORY_STEPS),
  };
  if (!trajectoryA.hasEvents && !trajectoryB.hasEvents) {
    return { ...base, index: null, note: 'neither attempt recorded tool calls (no events.jsonl)', a: null, b: null };
  }
  const missingSide = !trajectoryA.hasEvents ? 'A' : !trajectoryB.hasEvents ? 'B' : null;
  const length = Math.max(trajectoryA.calls.length, trajectoryB.calls.length);
  for (let index = 0; index < length; index += 1) {
    const left = trajectoryA.calls[index];
    const right = trajectoryB.calls[index];
    if (left?.tool !== right?.tool || left?.fullArguments !== right?.fullArguments) {
      return { ...base, index, note: missingSide === null ? null : `run ${missingSide} has no events.jsonl for this attempt`, a: shown(left), b: shown(right) };
    }
  }
  return { ...base, index: null, note: 'the same tool calls with the same arguments: the outcome changed after them', a: null, b: null };
}
