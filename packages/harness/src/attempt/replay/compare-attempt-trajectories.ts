import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AttemptRecord } from '@agentbench/schemas';

/** How a replayed attempt compares with the one it replays: the verdict, the steps, the tool calls. */
export interface AttemptComparison {
  verdict: { original: string; replay: string };
  steps: { original: number; replay: number };
  toolCalls: { original: number; replay: number };
  /** The first tool call (1-based) that differs, absent when the two sequences are equal. */
  firstDifference?: { call: number; original: string | null; replay: string | null };
  /** Same verdict and the same tool calls in the same order. */
  isSame: boolean;
}

/** `PASSED`, or `FAILED <failure reason>`. */
export function verdictOf(record: AttemptRecord): string {
  return record.result.passed ? 'PASSED' : `FAILED ${record.result.failure_reason ?? ''}`.trim();
}

/** The agent's tool calls in order, from `events.jsonl`, each as `tool {params}`. */
export async function toolCallsOf(runDir: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path.join(runDir, 'events.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const calls: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let event: { event_type?: unknown; payload?: { tool?: unknown; params?: unknown } };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.event_type === 'tool_call_started') calls.push(`${String(event.payload?.tool)} ${JSON.stringify(event.payload?.params ?? {})}`);
  }
  return calls;
}

export async function compareAttemptTrajectories(original: { runDir: string; record: AttemptRecord }, replay: { runDir: string; record: AttemptRecord }): Promise<AttemptComparison> {
  const [originalCalls, replayCalls] = await Promise.all([toolCallsOf(original.runDir), toolCallsOf(replay.runDir)]);
  const comparison: AttemptComparison = {
    verdict: { original: verdictOf(original.record), replay: verdictOf(replay.record) },
    steps: { original: original.record.metrics?.steps ?? 0, replay: replay.record.metrics?.steps ?? 0 },
    toolCalls: { original: originalCalls.length, replay: replayCalls.length },
    isSame: false,
  };
  const length = Math.max(originalCalls.length, replayCalls.length);
  for (let index = 0; index < length; index += 1) {
    if (originalCalls[index] !== replayCalls[index]) {
      comparison.firstDifference = { call: index + 1, original: originalCalls[index] ?? null, replay: replayCalls[index] ?? null };
      break;
    }
  }
  comparison.isSame = comparison.verdict.original === comparison.verdict.replay && comparison.firstDifference === undefined;
  return comparison;
}

/** A few lines for a terminal: verdicts, steps and the first differing tool call. */
export function formatAttemptComparison(comparison: AttemptComparison): string {
  const cut = (text: string | null): string => (text === null ? '(none)' : text.length > 160 ? `${text.slice(0, 160)}…` : text);
  const lines = [
    `verdict: ${comparison.verdict.original} → ${comparison.verdict.replay}${comparison.verdict.original === comparison.verdict.replay ? ' (same)' : ' (DIFFERENT)'}`,
    `steps: ${comparison.steps.original} → ${comparison.steps.replay}; tool calls: ${comparison.toolCalls.original} → ${comparison.toolCalls.replay}`,
  ];
  if (comparison.firstDifference === undefined) lines.push('trajectory: the same tool calls in the same order');
  else lines.push(`trajectory: first difference at tool call ${comparison.firstDifference.call}: ${cut(comparison.firstDifference.original)} → ${cut(comparison.firstDifference.replay)}`);
  return lines.join('\n');
}
