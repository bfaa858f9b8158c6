import path from 'node:path';
import { readInputFile, showValue } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

function envFileError(file: string, line: number, message: string): ScenarioRunnerError {
  return new ScenarioRunnerError('env_file', `${file}:${line}: ${message}`);
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([nrt"\\$])/g, (_match, character: string) => {
    switch (character) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      default:
        return character;
    }
  });
}

/**
 * Parses the dotenv format: `NAME=value` lines, optional `export `, `#` comments, blank lines,
 * single quotes (literal), double quotes (with `\n`, `\t`, `\"` escapes, may span lines) and unquoted
 * values (an inline ` #` starts a comment). No variable expansion: what is written is what is set.
 */
export function parseEnvFile(text: string, file = '.env'): Record<string, string> {
  const variables: Record<string, string> = {};
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const lineNumber = index + 1;
    const raw = lines[index] ?? '';
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const statement = line.startsWith('export ') ? line.slice('export '.length).trimStart() : line;
    const equals = statement.indexOf('=');
    if (equals <= 0) throw envFileError(file, lineNumber, `expected NAME=value, found ${showValue(raw)}`);
    const name = statement.slice(0, equals).trim();
    if (!NAME_PATTERN.test(name)) throw envFileError(file, lineNumber, `expected a variable name of letters, digits and "_", found ${showValue(name)}`);
    let value = statement.slice(equals + 1).trimStart();
    const quote = value[0];
    if (quote === '"' || quote === "'") {
      let body = value.slice(1);
      let closing = findClosingQuote(body, quote);
      // A double-quoted value may continue on the next lines.
      while (closing < 0 && quote === '"' && index + 1 < lines.length) {
        index += 1;
        body += `\n${lines[index] ?? ''}`;
        closing = findClosingQuote(body, quote);
      }
      if (closing < 0) throw envFileError(file, lineNumber, `the value of ${name} opens a ${quote} quote that is never closed`);
      const rest = body.slice(closing + 1).trim();
      if (rest !== '' && !rest.startsWith('#')) throw envFileError(file, lineNumber, `unexpected text after the quoted value of ${showValue(name)}: ${showValue(rest)}`);
      const inner = body.slice(0, closing);
      value = quote === '"' ? unescapeDoubleQuoted(inner) : inner;
    } else {
      const comment = value.search(/\s#/);
      value = (comment >= 0 ? value.slice(0, comment) : value).trim();
    }
    variables[name] = value;
  }
  return variables;
}

function findClosingQuote(text: string, quote: string): number {
  for (let index = 0; index < text.length; index += 1) {
    if (quote === '"' && text[index] === '\\') {
      index += 1;
      continue;
    }
    if (text[index] === quote) return index;
  }
  return -1;
}

/** Reads and parses an env file; a missing file is an error naming it. */
export async function loadEnvFile(file: string): Promise<Record<string, string>> {
  const absolute = path.resolve(file);
  // Read like every other input file: a regular file, bounded, UTF-8 text.
  const read = await readInputFile(absolute);
  if (read.problem !== undefined) {
    const position = read.problem.line === undefined ? '' : `:${read.problem.line}:${read.problem.column ?? 1}`;
    throw new ScenarioRunnerError('env_file', `--env-file ${absolute}${position}: ${read.problem.kind === 'not_found' ? 'no such file' : read.problem.message}`);
  }
  return parseEnvFile(read.text, absolute);
}

/**
 * Sets variables in `process.env` and returns the function that puts every touched variable back as
 * it was (removed again when it was not set before). Plugins read `process.env`, so the run sees the
 * file's values; nothing outlives the run.
 */
export function applyEnvironment(variables: Readonly<Record<string, string>>): () => void {
  const previous = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(variables)) {
    if (!previous.has(name)) previous.set(name, process.env[name]);
    process.env[name] = value;
  }
  let isRestored = false;
  return () => {
    if (isRestored) return;
    isRestored = true;
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
