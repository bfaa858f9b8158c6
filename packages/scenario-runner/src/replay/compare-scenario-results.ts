import type { EvaluationRecord, ScenarioRunResult } from '../run/scenario-result.js';

/** One evaluation of either run, where it sits and what it gave. */
export interface EvaluationOutcome {
  /** `run[0] final llm_judge`, `run[0] turn 2 regex_match`. */
  where: string;
  success: boolean;
  score: number | null;
}

/** How a replayed scenario run compares with the one it replays. */
export interface ScenarioComparison {
  /** `PASSED`, `FAILED`, or `ERRORED: <first error>`. */
  verdict: { original: string; replay: string };
  /** Evaluations whose pass/fail or score differ (one side null when the other run has no such evaluation). */
  evaluationDifferences: { where: string; original: EvaluationOutcome | null; replay: EvaluationOutcome | null }[];
  evaluations: { original: number; replay: number };
  turns: { original: number; replay: number };
  trajectory: { original: number; replay: number };
  /** The first agent turn whose user input or reply differs (a single-turn step is turn 1 of its step). */
  firstDifferingTurn?: { step: number; turn: number; original: string | null; replay: string | null };
  /** Same verdict, evaluations, turn count, trajectory length and turns. */
  isSame: boolean;
}

export function verdictOfResult(result: ScenarioRunResult): string {
  if (result.status === 'errored') return `ERRORED: ${result.errors[0]?.message ?? result.judgment.reason}`;
  return result.passed ? 'PASSED' : 'FAILED';
}

function outcomeOf(record: EvaluationRecord): EvaluationOutcome {
  const phase = record.phase === 'turn' ? `turn ${record.turn ?? '?'}` : record.phase;
  return { where: `run[${record.step}] ${phase} ${record.type}`, success: record.success, score: record.score ?? null };
}

/** Each agent turn as `user input → reply`, in order, with its step and turn. */
function turnsOf(result: ScenarioRunResult): { step: number; turn: number; text: string }[] {
  return result.steps.flatMap((step) => {
    if (step.conversation !== undefined) return step.conversation.turns.map((turn) => ({ step: step.index, turn: turn.turn, text: `${turn.user_input} → ${turn.agent_response}${turn.error === undefined ? '' : ` (error: ${turn.error})`}` }));
    if (step.kind === 'code') return [];
    return [{ step: step.index, turn: 1, text: `${step.input ?? ''} → ${step.response}${step.error === undefined ? '' : ` (error: ${step.error})`}` }];
  });
}

/** Compares two results of the same scenario: verdict, each evaluation's pass/fail and score, turns and trajectory. */
export function compareScenarioResults(original: ScenarioRunResult, replay: ScenarioRunResult): ScenarioComparison {
  const originalEvaluations = original.evaluations.map(outcomeOf);
  const replayEvaluations = replay.evaluations.map(outcomeOf);
  const evaluationDifferences: ScenarioComparison['evaluationDifferences'] = [];
  for (let index = 0; index < Math.max(originalEvaluations.length, replayEvaluations.length); index += 1) {
    const left = originalEvaluations[index] ?? null;
    const right = replayEvaluations[index] ?? null;
    if (left === null || right === null || left.where !== right.where || left.success !== right.success || left.score !== right.score) {
      evaluationDifferences.push({ where: (left ?? right)?.where ?? `evaluation ${index + 1}`, original: left, replay: right });
    }
  }
  const comparison: ScenarioComparison = {
    verdict: { original: verdictOfResult(original), replay: verdictOfResult(replay) },
    evaluationDifferences,
    evaluations: { original: originalEvaluations.length, replay: replayEvaluations.length },
    turns: { original: original.metrics.conversation_turns, replay: replay.metrics.conversation_turns },
    trajectory: { original: original.trajectory.length, replay: replay.trajectory.length },
    isSame: false,
  };
  const originalTurns = turnsOf(original);
  const replayTurns = turnsOf(replay);
  for (let index = 0; index < Math.max(originalTurns.length, replayTurns.length); index += 1) {
    const left = originalTurns[index];
    const right = replayTurns[index];
    if (left?.text !== right?.text || left?.step !== right?.step || left?.turn !== right?.turn) {
      const place = (left ?? right)!;
      comparison.firstDifferingTurn = { step: place.step, turn: place.turn, original: left?.text ?? null, replay: right?.text ?? null };
      break;
    }
  }
  comparison.isSame =
    comparison.verdict.original === comparison.verdict.replay &&
    evaluationDifferences.length === 0 &&
    comparison.turns.original === comparison.turns.replay &&
    comparison.trajectory.original === comparison.trajectory.replay &&
    comparison.firstDifferingTurn === undefined;
  return comparison;
}

/** A few lines for a terminal: verdicts, evaluations, turns and trajectory, the first differing turn. */
export function formatScenarioComparison(comparison: ScenarioComparison): string {
  const cut = (text: string | null): string => (text === null ? '(none)' : text.length > 160 ? `${text.slice(0, 160)}…` : text);
  const same = (left: unknown, right: unknown): string => (left === right ? ' (same)' : ' (DIFFERENT)');
  const outcome = (value: EvaluationOutcome | null): string => (value === null ? '(none)' : `${value.success ? 'pass' : 'fail'}${value.score === null ? '' : ` ${value.score}`}`);
  const lines = [
    `verdict: ${comparison.verdict.original} → ${comparison.verdict.replay}${same(comparison.verdict.original, comparison.verdict.replay)}`,
    `evaluations: ${comparison.evaluations.original} → ${comparison.evaluations.replay}, ${comparison.evaluationDifferences.length === 0 ? 'each with the same pass/fail and score' : `${comparison.evaluationDifferences.length} differ`}`,
    ...comparison.evaluationDifferences.slice(0, 10).map((difference) => `  ${difference.where}: ${outcome(difference.original)} → ${outcome(difference.replay)}`),
    `turns: ${comparison.turns.original} → ${comparison.turns.replay}; trajectory entries: ${comparison.trajectory.original} → ${comparison.trajectory.replay}`,
  ];
  const turn = comparison.firstDifferingTurn;
  if (turn === undefined) lines.push('turns: the same inputs and replies in the same order');
  else lines.push(`first differing turn: run[${turn.step}] turn ${turn.turn}: ${cut(turn.original)} → ${cut(turn.replay)}`);
  lines.push(comparison.isSame ? 'same: the replay reproduced the run' : 'not the same: the replay did not reproduce the run');
  return lines.join('\n');
}
