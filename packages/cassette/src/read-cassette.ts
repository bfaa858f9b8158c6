import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { CassetteExchangeSchema, CassetteHeaderSchema, CASSETTE_FORMAT, type CassetteExchange, type CassetteHeader } from '@agentbench/schemas';
import { CassetteFileError } from './errors/cassette-file-error.js';

export interface Cassette {
  file: string;
  header: CassetteHeader;
  exchanges: CassetteExchange[];
}

/**
 * Reads `cassette.jsonl`: a header line, then one exchange per line. A line that is not JSON (a
 * recording cut short by a crash) or not an exchange is a CassetteFileError naming the file and
 * the line; nothing is skipped, since a replay from half a cassette would diverge for no reason.
 */
export async function readCassette(file: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CassetteFileError(file, undefined, code === 'ENOENT' ? 'no such file (expected the cassette.jsonl of a recorded attempt)' : `cannot read it: ${(error as Error).message}`, { cause: error });
  }
  return parseCassette(file, text);
}

export function parseCassette(file: string, text: string): Cassette {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new CassetteFileError(file, undefined, `empty; expected a header line of format "${CASSETTE_FORMAT}"`);
  const values = lines.map((line, index) => parseLine(file, line, index + 1, index === lines.length - 1 && !text.endsWith('\n')));
  const header = v.safeParse(CassetteHeaderSchema, values[0]);
  if (!header.success) {
    const format = (values[0] as { format?: unknown } | null)?.format;
    const why = format === CASSETTE_FORMAT ? issueText(header.issues) : `not a cassette header (expected "format": "${CASSETTE_FORMAT}", found ${JSON.stringify(format ?? null)})`;
    throw new CassetteFileError(file, 1, why);
  }
  const exchanges: CassetteExchange[] = [];
  for (let index = 1; index < values.length; index += 1) {
    const exchange = v.safeParse(CassetteExchangeSchema, values[index]);
    if (!exchange.success) throw new CassetteFileError(file, index + 1, `not a cassette exchange: ${issueText(exchange.issues)}`);
    exchanges.push(exchange.output);
  }
  return { file, header: header.output, exchanges };
}

function parseLine(file: string, line: string, lineNumber: number, isLastWithoutNewline: boolean): unknown {
  try {
    return JSON.parse(line);
  } catch {
    const why = isLastWithoutNewline ? 'cut short (the recording stopped mid-line); re-record the attempt or delete that line' : 'not valid JSON';
    throw new CassetteFileError(file, lineNumber, why);
  }
}

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (issue === undefined) return 'invalid';
  const field = v.getDotPath(issue);
  return `${field === null ? '' : `${field}: `}${issue.message}`;
}
