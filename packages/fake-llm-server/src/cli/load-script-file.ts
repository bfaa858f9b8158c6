import { readFile } from 'node:fs/promises';
import { describeValue } from '@agentbench/helpers';
import { FakeLlmServerError } from '../errors/fake-llm-server-error.js';
import type { FakeReply } from '../replies/fake-reply.js';
import { normalizeReply } from '../replies/normalize-reply.js';

/** A script file: a JSON array of replies, or an object with `replies` and optionally `models`. */
export interface ScriptFile {
  replies: FakeReply[];
  models?: string[];
}

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Reads and checks a script file; errors name the file, the line and column or the field path. */
export async function loadScriptFile(path: string): Promise<ScriptFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error);
    throw new FakeLlmServerError(`${path}: cannot read the script file: ${reason}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message)?.[1];
    const where = position === undefined ? '' : `${lineAndColumn(text, Number(position))}: `;
    throw new FakeLlmServerError(`${path}: ${where}not valid JSON: ${message}`, { cause: error });
  }
  const isArray = Array.isArray(data);
  const root = isArray ? { replies: data } : data;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new FakeLlmServerError(`${path}: expected an array of replies or an object {replies, models?}, found ${describeValue(data)}`);
  }
  const { replies, models, ...rest } = root as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0) {
    throw new FakeLlmServerError(`${path}: ${unknownKeys[0]}: unknown field; expected replies or models`);
  }
  if (!Array.isArray(replies)) {
    throw new FakeLlmServerError(`${path}: replies: expected an array of replies, found ${describeValue(replies)}`);
  }
  replies.forEach((reply, index) => normalizeReply(reply as FakeReply, `${path}: ${isArray ? '' : 'replies'}[${index}]`));
  if (models !== undefined && (!Array.isArray(models) || models.some((model) => typeof model !== 'string' || model === ''))) {
    throw new FakeLlmServerError(`${path}: models: expected an array of model names, found ${describeValue(models)}`);
  }
  return models === undefined ? { replies: replies as FakeReply[] } : { replies: replies as FakeReply[], models: models as string[] };
}
