import type Dockerode from 'dockerode';
import { engineMessage } from '../docker/docker-errors.js';
import { LABEL_MANAGED, LABEL_PID } from '../core/engine/labels.js';

/** The signal our own removals send (`docker rm -f`): a kill with it is ours, not the engine's. */
const REMOVAL_SIGNAL = '9';
const EVENTS_TIMEOUT_MS = 5_000;

interface KillEvent {
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
}

/**
 * Whether the engine may be shutting down, from what it says about this process's containers since `since`
 * (its past events, read once: one request, no waiting). A stopping dockerd stops every container before its
 * API goes away (it answers pings until then: 15 s and more), with each container's stop signal (SIGTERM):
 * a `kill` event with any signal but SIGKILL on a container of ours is that (or someone's `docker stop`),
 * since our own removals send SIGKILL and an agent's `kill 1` makes no `kill` event at all. An events API that
 * fails is evidence too. Returns what was seen, or undefined when nothing points at the engine.
 */
export async function findEngineStopEvidence(docker: Dockerode, options: { since: Date; timeoutMs?: number }): Promise<string | undefined> {
  const filters: Dockerode.GetEventsOptions['filters'] = { type: ['container'], event: ['kill'], label: [`${LABEL_MANAGED}=true`, `${LABEL_PID}=${process.pid}`] };
  let timer: NodeJS.Timeout | undefined;
  let stream: NodeJS.ReadableStream | undefined;
  const timeoutMs = options.timeoutMs ?? EVENTS_TIMEOUT_MS;
  const read = async (): Promise<string> => {
    // With `until`, the engine sends the past events and closes the stream.
    stream = await docker.getEvents({ since: Math.floor(options.since.getTime() / 1000) - 1, until: Date.now() / 1000, filters });
    let text = '';
    for await (const chunk of stream as AsyncIterable<Buffer | string>) text += chunk.toString();
    return text;
  };
  try {
    const text = await Promise.race([
      read(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const event = JSON.parse(line) as KillEvent;
      const signal = event.Actor?.Attributes?.['signal'];
      if (signal !== undefined && signal !== REMOVAL_SIGNAL) {
        const name = event.Actor?.Attributes?.['name'] ?? event.Actor?.ID?.slice(0, 12) ?? 'a container';
        return `container ${name} was sent signal ${signal} by the engine (a stopping engine stops its containers first)`;
      }
    }
    return undefined;
  } catch (error) {
    return `its events API failed: ${engineMessage(error)}`;
  } finally {
    clearTimeout(timer);
    // A stream cut off by the timeout must not hold its socket open.
    (stream as { destroy?: () => void } | undefined)?.destroy?.();
  }
}
