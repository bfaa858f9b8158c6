import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { ConfigurationError } from '@agentbench/schemas';
import { modelFolderName, parseModelList, providerOf, readModelList } from './model-list.js';

describe('parseModelList', () => {
  it('reads models.txt lines with comments, and comma lists', () => {
    const text = '# OpenRouter models\n\n# ==== OPEN ====\nmoonshotai/kimi-k2\nanthropic/claude-3.7-sonnet:thinking  # the thinking one\nmoonshotai/kimi-k2\n';
    expect(parseModelList(text, 'models.txt')).toEqual(['moonshotai/kimi-k2', 'anthropic/claude-3.7-sonnet:thinking']);
    expect(parseModelList('fake/a, fake/b,fake/c', '--models')).toEqual(['fake/a', 'fake/b', 'fake/c']);
  });

  it('names the line of a bad entry, and an empty list', () => {
    expect(() => parseModelList('ok/model\nnot a model\n', 'models.txt')).toThrow('models.txt:2: "not a model" is not a model name');
    expect(() => parseModelList('# nothing\n\n', 'models.txt')).toThrow(ConfigurationError);
  });

  it('derives providers and folder names', () => {
    expect(providerOf('openai/gpt-4o')).toBe('openai');
    expect(providerOf('local-model')).toBe('default');
    expect(modelFolderName('anthropic/claude-3.7-sonnet:thinking')).toBe('anthropic__claude-3.7-sonnet_thinking');
  });
});

describe('readModelList', () => {
  let directory: string;
  beforeEach(() => {
    directory = makeTemporaryDirectory('models');
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads a file when the value names one, else takes the value as the list', async () => {
    const file = path.join(directory, 'models.txt');
    await writeFile(file, 'fake/one\n# a comment\nfake/two\n');
    expect(await readModelList(file)).toEqual(['fake/one', 'fake/two']);
    expect(await readModelList('fake/three,fake/four')).toEqual(['fake/three', 'fake/four']);
  });

  it('refuses a models file that is not a regular file, by name', async () => {
    await expect(readModelList('/dev/zero')).rejects.toThrow('/dev/zero: expected a regular file, found a character device');
  });
});
