import type { TokenUsage } from './judge-cache.js';
import { EvaluatorsError } from '../errors/evaluators-error.js';

/**
 * Why an LLM judge gave no usable answer:
 * - `configuration`: no API key, an unknown model type, a bad base URL;
 * - `request_failed`: the API answered with an error or could not be reached;
 * - `malformed_answer`: the answer is not JSON, or has no structured output at all;
 * - `invalid_answer`: JSON that breaks the schema (missing field, out-of-range number, value not in the enum).
 */
export type JudgeErrorKind = 'configuration' | 'request_failed' | 'malformed_answer' | 'invalid_answer';

/** The judge could not produce a valid structured answer. Never turned into a score. */
export class JudgeError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.judge-error');
  override readonly name = 'JudgeError';
  readonly kind: JudgeErrorKind;
  /** The raw answer text, when there was one (for malformed and invalid answers). */
  readonly answer: string | undefined;
  /** Tokens spent before the failure (an invalid answer still cost its tokens), for the runner's count. */
  usage: TokenUsage | undefined;

  constructor(kind: JudgeErrorKind, message: string, options?: { cause?: unknown; answer?: string; usage?: TokenUsage }) {
    super(message, options);
    this.kind = kind;
    this.answer = options?.answer;
    this.usage = options?.usage;
  }
}
