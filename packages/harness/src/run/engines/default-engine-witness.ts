import { defaultEngine, findEngineStopEvidence, pingEngine } from '@agentbench/sandbox';
import type { EngineWitness } from './judge-engine-loss.js';

/** The name a try lost to the default engine (no engines list) gives it in `engine_unreachable`. */
export const DEFAULT_ENGINE_NAME = 'local';

/**
 * judgeEngineLoss's view of the one engine a run without an engines list uses (DOCKER_HOST or
 * /var/run/docker.sock): the same ping and the same past-events evidence as an engines list's, so a
 * try lost to that engine is infrastructure there too, not the agent's failure.
 */
export function defaultEngineWitness(docker: Parameters<typeof pingEngine>[0] = defaultEngine()): EngineWitness {
  return {
    checkHealth: () => pingEngine(docker),
    stopEvidence: (_name, since) => findEngineStopEvidence(docker, { since }),
  };
}
