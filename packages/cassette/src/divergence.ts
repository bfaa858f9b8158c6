import { createTwoFilesPatch } from 'diff';
import type { CassetteExchange } from '@agentbench/schemas';
import { normalizeRequestBody } from './normalize-request.js';

/** The first request a replay could not serve from its cassette. */
export interface Divergence {
  role: string;
  /** 1-based position among the role's requests. */
  step: number;
  endpoint: string;
  /** The recorded exchange it was compared with (the role's exchange at the same step, else its last), if any. */
  nearestStep: number | undefined;
  /** A unified diff of the normalised recorded request against the one sent. */
  diff: string;
}

const MAX_DIFF_LINES = 60;

/** Compares a request the cassette does not hold with the role's recorded exchange at the same step (else its last). */
export function describeDivergence(options: {
  role: string;
  step: number;
  endpoint: string;
  body: unknown;
  recorded: readonly CassetteExchange[];
}): Divergence {
  const ofRole = options.recorded.filter((exchange) => exchange.role === options.role);
  const nearest = ofRole.find((exchange) => exchange.step === options.step) ?? ofRole[ofRole.length - 1];
  const before = nearest === undefined ? '' : renderForDiff({ endpoint: nearest.endpoint, body: nearest.request.body });
  const after = renderForDiff({ endpoint: options.endpoint, body: options.body });
  const recordedName = nearest === undefined ? `recorded (no ${options.role} exchange)` : `recorded ${options.role} step ${nearest.step}`;
  const patch = createTwoFilesPatch(recordedName, `sent ${options.role} step ${options.step}`, before, after, undefined, undefined, { context: 2 });
  // The patch's first line is a separator of `=`; the file names follow.
  const lines = patch.split('\n').filter((line) => !/^=+$/.test(line) && line !== '\\ No newline at end of file');
  while (lines[lines.length - 1] === '') lines.pop();
  const shown = lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more diff lines`] : lines;
  return { role: options.role, step: options.step, endpoint: options.endpoint, nearestStep: nearest?.step, diff: shown.join('\n') };
}

/** Two lines: where the replay diverged; the diff follows on the next lines. */
export function formatDivergence(divergence: Divergence): string {
  return `replay diverged at ${divergence.role} step ${divergence.step} (${divergence.endpoint}): the cassette holds no such request\n${divergence.diff}`;
}

/**
 * One line per leaf of the normalised request, `path: value`; a string of several lines becomes
 * one `path | line` per line, so a changed sentence of a prompt shows as one changed line.
 */
export function renderForDiff(value: unknown): string {
  const lines: string[] = [];
  const visit = (node: unknown, at: string): void => {
    if (typeof node === 'string') {
      const parts = node.split('\n');
      if (parts.length === 1) lines.push(`${at}: ${JSON.stringify(node)}`);
      else for (const part of parts) lines.push(`${at} | ${part}`);
    } else if (Array.isArray(node)) {
      if (node.length === 0) lines.push(`${at}: []`);
      node.forEach((item, index) => visit(item, `${at}[${index}]`));
    } else if (typeof node === 'object' && node !== null) {
      const keys = Object.keys(node);
      if (keys.length === 0) lines.push(`${at}: {}`);
      for (const key of keys) visit((node as Record<string, unknown>)[key], at === '' ? key : `${at}.${key}`);
    } else {
      lines.push(`${at}: ${JSON.stringify(node)}`);
    }
  };
  visit(normalizeRequestBody(value), '');
  return `${lines.join('\n')}\n`;
}
