import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { isDirectory, isFile, pathExists } from './path-checks.js';

describe('path checks', () => {
  let scratch: TemporaryDirectory;
  beforeEach(async () => {
    scratch = await createTemporaryDirectory();
    await scratch.write('file.txt', 'x');
    await scratch.write('folder/inside.txt', 'x');
    await scratch.link('dangling', 'missing-target');
  });
  afterEach(async () => {
    await scratch.remove();
  });

  it('tells a file from a folder from nothing, answering false instead of throwing', async () => {
    const at = (name: string): string => path.join(scratch.path, name);
    expect([await pathExists(at('file.txt')), await isFile(at('file.txt')), await isDirectory(at('file.txt'))]).toEqual([true, true, false]);
    expect([await pathExists(at('folder')), await isFile(at('folder')), await isDirectory(at('folder'))]).toEqual([true, false, true]);
    expect([await pathExists(at('nothing')), await isFile(at('nothing')), await isDirectory(at('nothing'))]).toEqual([false, false, false]);
    // A link is followed: a dangling one is nothing.
    expect(await pathExists(at('dangling'))).toBe(false);
  });
});
