import { checkArtifact, LlmMessageRecordSchema } from '@agentbench/schemas';
import type { ReadProblem } from '../model/report-model.js';
import { problemReporter, readJsonLines } from './read-jsonl.js';
import { isRecord } from '@agentbench/helpers';

/** What the report takes from `llm_messages.jsonl`: each answer's text, and tool outputs by call id. */
export interface LlmTranscript {
  /** Each response, in file order. */
  answers: Array<{ step: number | null; text: string }>;
  /** The output the agent sent back for each tool call id (the last one seen). */
  toolOutputs: Map<string, string>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isRecord(part) ? (typeof part.text === 'string' ? part.text : typeof part.output_text === 'string' ? part.output_text : '') : typeof part === 'string' ? part : ''))
      .filter((text) => text !== '')
      .join('\n');
  }
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

function describeCall(name: unknown, argumentsText: unknown): string {
  const shown = typeof argumentsText === 'string' ? argumentsText : JSON.stringify(argumentsText ?? {});
  return `→ ${typeof name === 'string' ? name : 'tool'}(${shown})`;
}

/** Text of an answer: Chat Completions (`choices[0].message`) or Responses (`output[]`). */
export function answerText(body: unknown): string {
  if (!isRecord(body)) return '';
  const parts: string[] = [];
  const choices = body.choices;
  if (Array.isArray(choices) && isRecord(choices[0]) && isRecord(choices[0].message)) {
    const message = choices[0].message;
    const text = textOf(message.content);
    if (text !== '') parts.push(text);
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (isRecord(call) && isRecord(call.function)) parts.push(describeCall(call.function.name, call.function.arguments));
      }
    }
  }
  if (Array.isArray(body.output)) {
    for (const item of body.output) {
      if (!isRecord(item)) continue;
      if (item.type === 'message') parts.push(textOf(item.content));
      else if (item.type === 'function_call') parts.push(describeCall(item.name, item.arguments));
    }
  }
  if (parts.length === 0 && typeof body.output_text === 'string') parts.push(body.output_text);
  return parts.filter((part) => part !== '').join('\n');
}

/** Tool outputs a request sent back: Chat `{role: 'tool', tool_call_id}` or Responses `{type: 'function_call_output', call_id}`. */
function collectToolOutputs(body: unknown, into: Map<string, string>): void {
  if (!isRecord(body)) return;
  const lists = [body.messages, body.input].filter(Array.isArray) as unknown[][];
  for (const list of lists) {
    for (const item of list) {
      if (!isRecord(item)) continue;
      if (item.role === 'tool' && typeof item.tool_call_id === 'string') into.set(item.tool_call_id, textOf(item.content));
      else if (item.type === 'function_call_output' && typeof item.call_id === 'string') into.set(item.call_id, textOf(item.output));
    }
  }
}

/** Reads `llm_messages.jsonl` (agent-loop's LlmMessageRecord lines); undefined when there is none. */
export async function readLlmTranscript(file: string, problems: ReadProblem[]): Promise<LlmTranscript | undefined> {
  const lines = await readJsonLines(file, problems);
  if (lines === undefined) return undefined;
  const transcript: LlmTranscript = { answers: [], toolOutputs: new Map() };
  const reporter = problemReporter(file, problems);
  for (const { value, line } of lines) {
    const checked = checkArtifact(LlmMessageRecordSchema, value, 'an LLM message record');
    if (!checked.success) {
      reporter.add(line, `${checked.message}; skipped`);
      continue;
    }
    const record = checked.output;
    if (record.direction === 'request') collectToolOutputs(record.body, transcript.toolOutputs);
    else if (record.direction === 'response') transcript.answers.push({ step: record.step, text: answerText(record.body) });
    // Errors are in events.jsonl too (llm_request_failed); answers pair with llm_request_finished in order.
  }
  reporter.finish();
  return transcript;
}
