import { open } from 'node:fs/promises';
import { scanChanges, type Scanner } from '@agentbench/evaluators';
import { AgentEventSchema, type AgentEvent, type Suspicion } from '@agentbench/schemas';
import * as v from 'valibot';

/** Bytes of each diff file and of `events.jsonl` read for the scan: past them the rest is not read. */
export const MAX_SCANNED_BYTES = 16 * 1024 * 1024;

/** What an agent attempt is scanned with: plugins' scanners beside the built-in rules, and whether a suspicion fails it. */
export interface ScanningOptions {
  /** Scanners of plugins (`loadScanners`), run after the built-in rules. */
  scanners?: readonly Scanner[];
  /** A suspicion fails the attempt as SUSPECTED_TAMPERING (`--fail-on-suspicion`); the task's `evaluation.fail_on_suspicion` does too. */
  failOnSuspicion?: boolean;
}

export interface AgentChanges {
  /** Host-written diff files: the applied `agent.patch` and the dropped `tampered.patch`, when there is one. */
  patchFiles: readonly string[];
  /** The attempt's `events.jsonl`, when the agent loop wrote one. */
  eventsFile?: string;
  signal?: AbortSignal;
}

/**
 * The suspicions about an agent attempt's changes: its whole diff since setup (what the verdict
 * applied and what it dropped) and its trajectory, read by the built-in rules and the plugins'
 * scanners. The files are the harness's own, but their content is the agent's: read with a size
 * cap, the events parsed line by line against their schema (a line that does not parse is left
 * out), nothing run.
 */
export async function scanAgentChanges(changes: AgentChanges, options: ScanningOptions): Promise<Suspicion[]> {
  const patches = await Promise.all(changes.patchFiles.map((file) => readCapped(file)));
  const events = changes.eventsFile === undefined ? [] : parseEvents(await readCapped(changes.eventsFile));
  return scanChanges({
    patch: patches.join(''),
    events,
    ...(options.scanners === undefined ? {} : { scanners: options.scanners }),
    ...(changes.signal === undefined ? {} : { signal: changes.signal }),
  });
}

async function readCapped(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
  try {
    const buffer = Buffer.alloc(Math.min(MAX_SCANNED_BYTES, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function parseEvents(text: string): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = v.safeParse(AgentEventSchema, value);
    if (parsed.success) events.push(parsed.output);
  }
  return events;
}
