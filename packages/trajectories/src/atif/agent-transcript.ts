import { answerOfJson } from '../gateway/answer-of-exchange.js';
import { isRecord } from '../streams/read-stream-lines.js';
import { excerpt } from '../streams/stream-limits.js';

/** What ATIF needs of our agent loop's `llm_messages.jsonl`: the task's prompt, each answer's text, each tool's output. */
export interface AgentTranscript {
  /** The first request's last user message: the instruction the agent was given (earlier ones may be context, as Codex's environment). */
  instruction?: string;
  /** Each answer, in file order. */
  answers: string[];
  /** What the agent sent back for each tool call id. */
  toolOutputs: Map<string, string>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (isRecord(part) ? (typeof part.text === 'string' ? part.text : typeof part.content === 'string' ? part.content : '') : '')).filter((text) => text !== '').join('\n');
  return '';
}

/**
 * Reads our agent loop's LLM message records (`{direction, body}` per line, already parsed): answers
 * from `response` bodies (Chat Completions, Responses or Messages), tool outputs from the tool messages
 * of `request` bodies (Chat `role: tool`, Responses `function_call_output`, Messages `tool_result`).
 */
export function agentTranscript(records: readonly unknown[]): AgentTranscript {
  const transcript: AgentTranscript = { answers: [], toolOutputs: new Map() };
  let isFirstRequest = true;
  for (const record of records) {
    if (!isRecord(record) || !isRecord(record.body)) continue;
    const body = record.body;
    if (record.direction === 'response') {
      transcript.answers.push(answerOfJson(body).text);
      continue;
    }
    if (record.direction !== 'request') continue;
    const items = [body.messages, body.input].filter(Array.isArray).flat() as unknown[];
    if (isFirstRequest) {
      const lastUser = items.filter((item): item is Record<string, unknown> => isRecord(item) && item.role === 'user' && textOf(item.content) !== '').at(-1);
      // Its last text part: Claude Code puts reminders and context in parts before the instruction.
      if (lastUser !== undefined) {
        const content = lastUser.content;
        transcript.instruction = excerpt(Array.isArray(content) ? textOf(content.filter((part) => textOf([part]) !== '').slice(-1)) : textOf(content));
      }
      isFirstRequest = false;
    }
    for (const item of items) {
      if (!isRecord(item)) continue;
      if (item.role === 'tool' && typeof item.tool_call_id === 'string') transcript.toolOutputs.set(item.tool_call_id, excerpt(textOf(item.content)));
      else if (item.type === 'function_call_output' && typeof item.call_id === 'string') transcript.toolOutputs.set(item.call_id, excerpt(textOf(item.output)));
      else if (item.role === 'user' && Array.isArray(item.content)) {
        for (const block of item.content) {
          if (isRecord(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string') transcript.toolOutputs.set(block.tool_use_id, excerpt(textOf(block.content)));
        }
      }
    }
  }
  return transcript;
}
