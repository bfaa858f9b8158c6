import { ConfigurationError, type LlmMessageRecord } from '@agentbench/schemas';
import { JsonlWriter } from './jsonl-writer.js';

export interface LlmLogSettings {
  /** Write `llm_messages.jsonl`. Default: `AGENTBENCH_LOG_LLM_MESSAGES`, on unless set to 0/false/no/off. */
  isEnabled: boolean;
  /** Longest string kept in a logged body; longer ones keep their head and a marker. `undefined`: no limit. */
  maxChars: number | undefined;
}

export const DEFAULT_LLM_LOG_MAX_CHARS = 20_000;

const truthy = new Set(['1', 'true', 'yes', 'on']);
const falsy = new Set(['0', 'false', 'no', 'off']);

function readSwitch(environment: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = environment[name];
  if (value === undefined || value.trim() === '') return undefined;
  const normalized = value.trim().toLowerCase();
  if (truthy.has(normalized)) return true;
  if (falsy.has(normalized)) return false;
  throw new ConfigurationError(name, `expected 1/true/yes/on or 0/false/no/off, found ${JSON.stringify(value)}`);
}

/**
 * Resolves the spec's switches: `AGENTBENCH_LOG_LLM_MESSAGES` (an explicit option wins, as the
 * CLI's `--[no-]log-llm-messages`), `AGENTBENCH_LLM_LOG_MAX_CHARS` and `AGENTBENCH_FULL_LOGS`
 * (no truncation at all).
 */
export function resolveLlmLogSettings(options: { isEnabled?: boolean; maxChars?: number; environment?: NodeJS.ProcessEnv } = {}): LlmLogSettings {
  const environment = options.environment ?? process.env;
  const isEnabled = options.isEnabled ?? readSwitch(environment, 'AGENTBENCH_LOG_LLM_MESSAGES') ?? true;
  if (readSwitch(environment, 'AGENTBENCH_FULL_LOGS') === true) return { isEnabled, maxChars: undefined };
  let maxChars = options.maxChars;
  if (maxChars === undefined) {
    const raw = environment['AGENTBENCH_LLM_LOG_MAX_CHARS'];
    if (raw !== undefined && raw.trim() !== '') {
      maxChars = Number(raw);
      if (!Number.isInteger(maxChars) || maxChars < 1) {
        throw new ConfigurationError('AGENTBENCH_LLM_LOG_MAX_CHARS', `expected a whole number of characters ≥ 1, found ${JSON.stringify(raw)}`);
      }
    }
  }
  return { isEnabled, maxChars: maxChars ?? DEFAULT_LLM_LOG_MAX_CHARS };
}

/** Cuts every string longer than `maxChars` inside a JSON value, saying how much was dropped. */
export function truncateStrings(value: unknown, maxChars: number | undefined): unknown {
  if (maxChars === undefined) return value;
  if (typeof value === 'string') {
    return value.length <= maxChars ? value : `${value.slice(0, maxChars)}…[truncated ${value.length - maxChars} of ${value.length} chars]`;
  }
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item, maxChars));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, truncateStrings(item, maxChars)]));
  }
  return value;
}

// A line of `llm_messages.jsonl`, defined by its schema in @agentbench/schemas (reports read it through it).
export type { LlmMessageRecord } from '@agentbench/schemas';

/** `llm_messages.jsonl`: each request body and each answer (or error), try by try, strings truncated by the settings. */
export class LlmMessageLog {
  private readonly writer: JsonlWriter;
  readonly file: string;

  constructor(
    file: string,
    private readonly settings: LlmLogSettings,
  ) {
    this.writer = new JsonlWriter(file);
    this.file = this.writer.file;
  }

  write(record: LlmMessageRecord): void {
    if (this.writer.isClosed) return;
    const line: Record<string, unknown> = { timestamp: new Date().toISOString(), ...record };
    if (record.body !== undefined) line['body'] = truncateStrings(record.body, this.settings.maxChars);
    this.writer.write(line);
  }

  close(): void {
    this.writer.close();
  }
}
