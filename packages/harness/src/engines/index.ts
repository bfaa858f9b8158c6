export { engineSandboxFactory, type EnginePlacement, type EngineSandboxFactory } from './engine-sandbox-factory.js';
export { runPlacedAttempt, type PlacedOutcome, type PlacedAttemptResult, type RunPlacedAttemptOptions } from './run-placed-attempt.js';
export { prepareEngines, type PrepareEnginesOptions } from './prepare-engines.js';
