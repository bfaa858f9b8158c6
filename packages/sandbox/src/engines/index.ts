export { EngineSet, type Engine, type EngineLease, type EngineSetOptions } from './engine-set.js';
export { createEngineClient, engineClientOptions } from './engine-client.js';
export { pingEngine, DEFAULT_PING_TIMEOUT_MS, type EngineHealth } from './ping-engine.js';
export { checkEngines, type CheckEnginesOptions } from './check-engines.js';
export { ensureImage, type EnsureImageOptions, type EnsureImageResult, type ImageTransferProgress } from './ensure-image.js';
export { findEngineStopEvidence } from './engine-stop-evidence.js';
