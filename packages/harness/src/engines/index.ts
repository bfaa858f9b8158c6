export { engineSandboxFactory, type EnginePlacement, type EngineSandboxFactory } from './engine-sandbox-factory.js';
export { runPlacedAttempt, DYING_ENGINE_GRACE_MS, type PlacedOutcome, type PlacedAttemptResult, type RunPlacedAttemptOptions } from './run-placed-attempt.js';
export { prepareEngines, type PrepareEnginesOptions } from './prepare-engines.js';
