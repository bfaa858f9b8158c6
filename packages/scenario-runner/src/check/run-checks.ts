import type { FileValidationChecks } from '@agentbench/schemas';
import { planScenario, type PlanScenarioOptions } from '../plan/plan-scenario.js';
import { checkMatrix } from '../matrix/check-matrix.js';

/**
 * The checks a run makes before it starts, for `validateFile` (`ab validate`): for a scenario, its plan
 * (plugins loaded, evaluator types and parameters, conversation-only evaluators, code languages, plugin
 * conditions, mocks, provider); for a matrix, also its parameter paths, values and combinations. What is
 * not installed here is a warning; what is wrong in the file is an error, exactly as a run reports it.
 */
export function runChecks(options: PlanScenarioOptions = {}): Required<FileValidationChecks> {
  return {
    scenario: async (loaded) => (await planScenario(loaded, options)).issues,
    matrix: async (loaded) => (await checkMatrix(loaded, options)).issues,
  };
}
