// `result.json` of one scenario run is defined once, by its schema in @agentbench/schemas; the runner
// writes it through that type. The names below are its parts, as the runner's stages build them.
import type { ScenarioRunResult } from '@agentbench/schemas';

export { SCENARIO_RESULT_SCHEMA_VERSION, type ScenarioRunResult } from '@agentbench/schemas';

/** `passed`: the judgment passed and nothing errored; `errored`: the run could not complete (never a pass). */
export type ScenarioRunStatus = ScenarioRunResult['status'];
/** One evaluation as the result file records it. */
export type EvaluationRecord = ScenarioRunResult['evaluations'][number];
export type StepResult = ScenarioRunResult['steps'][number];
export type ConversationStepResult = NonNullable<StepResult['conversation']>;
export type ConversationTurnResult = ConversationStepResult['turns'][number];
export type RunError = ScenarioRunResult['errors'][number];
export type ScenarioRunMetrics = ScenarioRunResult['metrics'];
