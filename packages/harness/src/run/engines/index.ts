export { engineSandboxFactory, type EnginePlacement, type EngineSandboxFactory } from './engine-sandbox-factory.js';
export { runPlacedAttempt, type PlacedAttemptResult, type RunPlacedAttemptOptions } from './run-placed-attempt.js';
export { runOnEngine, type EngineTry, type PlacedOutcome, type RunOnEngineOptions } from './run-on-engine.js';
export { judgeEngineLoss, DYING_ENGINE_GRACE_MS, type EngineVerdict, type EngineWitness, type JudgeEngineLossOptions } from './judge-engine-loss.js';
export { prepareEngines, type PrepareEnginesOptions } from './prepare-engines.js';
