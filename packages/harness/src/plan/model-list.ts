import { existsSync } from 'node:fs';
import { readInputText } from '@agentbench/schemas';
import { ConfigurationError } from '@agentbench/schemas';

const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/;

/**
 * Model names from a `models.txt` (one per line; `#` starts a comment; blank lines ignored) or
 * a comma-separated list. Repeats are dropped; a name with spaces or odd characters is an error
 * naming its line.
 */
export function parseModelList(text: string, source: string): string[] {
  const models: string[] = [];
  const lines = text.includes('\n') ? text.split('\n') : text.split(',');
  lines.forEach((raw, index) => {
    const name = raw.replace(/#.*$/, '').trim();
    if (name === '') return;
    if (!MODEL_NAME.test(name)) {
      const where = text.includes('\n') ? `${source}:${index + 1}` : `${source} (entry ${index + 1})`;
      throw new ConfigurationError(where, `"${name}" is not a model name (expected e.g. anthropic/claude-3.5-sonnet)`);
    }
    if (!models.includes(name)) models.push(name);
  });
  if (models.length === 0) throw new ConfigurationError(source, 'no model names (one per line, or a comma-separated list)');
  return models;
}

/**
 * `--models`: a path to a models.txt, or the names themselves. The file is read like every input
 * file (a regular file, bounded, UTF-8 text: a FIFO or /dev/zero is refused).
 */
export async function readModelList(value: string): Promise<string[]> {
  if (existsSync(value)) return parseModelList(await readInputText(value), value);
  return parseModelList(value, '--models');
}

/** The provider a model is rate-limited under: the part before the first `/` (`openai/gpt-4o` → `openai`). */
export function providerOf(model: string): string {
  const slash = model.indexOf('/');
  return slash <= 0 ? 'default' : model.slice(0, slash);
}

/** A model name as a folder name: `anthropic/claude-3.7-sonnet:thinking` → `anthropic__claude-3.7-sonnet_thinking`. */
export function modelFolderName(model: string): string {
  return model.replaceAll('/', '__').replace(/[^A-Za-z0-9._-]/g, '_');
}
