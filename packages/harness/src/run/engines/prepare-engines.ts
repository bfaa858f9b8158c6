import { ConfigurationError, type EngineConfig } from '@agentbench/schemas';
import { EngineSet, SandboxError, type ImageTransferProgress } from '@agentbench/sandbox';

export interface PrepareEnginesOptions {
  engines: readonly EngineConfig[];
  /** Runner images the run needs on every engine. */
  images: readonly string[];
  onImageProgress?: (engine: string, image: string, progress: ImageTransferProgress) => void;
  onImageSent?: (engine: string, image: string, bytes: number, durationMs: number) => void;
}

/**
 * Opens the engine set of a run and checks it before the first attempt: every engine answers (a run
 * does not start on a list with a dead engine: the list is probably wrong), and has the runner images
 * (sent from the local engine where missing, without any registry).
 */
export async function prepareEngines(options: PrepareEnginesOptions): Promise<EngineSet> {
  const engineSet = await EngineSet.open(options.engines);
  const health = await engineSet.checkAll();
  for (const engine of options.engines) {
    const answer = health.get(engine.name);
    if (answer !== undefined && !answer.isUp) {
      throw new SandboxError('engine_unavailable', `engine '${engine.name}' (${engine.host}) does not answer: ${answer.message}`, { subject: engine.name });
    }
  }
  for (const image of new Set(options.images)) {
    const results = await engineSet.ensureImage(image, {
      ...(options.onImageProgress === undefined ? {} : { onProgress: (engine: string, progress: ImageTransferProgress) => options.onImageProgress?.(engine, image, progress) }),
    });
    for (const [engine, result] of results) if (result.status === 'sent') options.onImageSent?.(engine, image, result.bytes, result.durationMs);
  }
  return engineSet;
}

/**
 * A run's engines list (`--engines`), checked before its run folder exists so a dead engine or a
 * failed image transfer leaves nothing half-written; none without a list. Refused beside a caller's
 * sandbox factory: the engines list makes the sandboxes.
 */
export async function prepareRunEngines(engines: readonly EngineConfig[] | undefined, options: Omit<PrepareEnginesOptions, 'engines'> & { createSandbox?: unknown }): Promise<EngineSet | undefined> {
  if (engines === undefined) return undefined;
  if (options.createSandbox !== undefined) throw new ConfigurationError('engines', 'cannot be given with createSandbox: the engines list makes the sandboxes');
  const { createSandbox: _createSandbox, ...prepare } = options;
  return prepareEngines({ ...prepare, engines });
}
