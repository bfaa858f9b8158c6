import type Dockerode from 'dockerode';
import { engineMessage } from '../docker/docker-errors.js';

/** What one engine said when asked. */
export type EngineHealth = { isUp: true; version: string; apiVersion: string } | { isUp: false; message: string };

export const DEFAULT_PING_TIMEOUT_MS = 5_000;

/** Asks the engine for its version within `timeoutMs`; never throws. */
export async function pingEngine(docker: Dockerode, timeoutMs: number = DEFAULT_PING_TIMEOUT_MS): Promise<EngineHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const version = await Promise.race([docker.version(), timeout]);
    return { isUp: true, version: version.Version, apiVersion: version.ApiVersion };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { isUp: false, message: code === undefined ? engineMessage(error) : `${code}: ${engineMessage(error)}` };
  } finally {
    clearTimeout(timer);
  }
}
