import { mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { INTERRUPTED_TRIES_FOLDER, moveInterruptedTry } from './move-interrupted-try.js';

let root: string;
beforeEach(() => {
  root = makeTemporaryDirectory('interrupted-try');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('moveInterruptedTry', () => {
  it('renames a leftover try folder into .interrupted/ without touching what its symlinks point to', async () => {
    const runDir = path.join(root, 'run');
    const tryDir = path.join(runDir, 'scripted', 'agent_runs', 'toy', 'r1-try1');
    const outside = path.join(root, 'host-files');
    await mkdir(path.join(tryDir, 'workspace'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(outside, 'precious.txt'), 'keep me\n');
    // What a container that outlived the kill could have swapped in.
    await symlink(outside, path.join(tryDir, 'workspace', 'repo'));

    const movedTo = await moveInterruptedTry(runDir, tryDir);

    expect(movedTo).toBeDefined();
    expect(path.dirname(movedTo!)).toBe(path.join(runDir, INTERRUPTED_TRIES_FOLDER));
    expect(path.basename(movedTo!)).toMatch(/^scripted__agent_runs__toy__r1-try1-[0-9A-Z]{26}$/);
    await expect(stat(tryDir)).rejects.toThrow();
    expect(await readFile(path.join(outside, 'precious.txt'), 'utf8')).toBe('keep me\n');
    expect(await readdir(path.join(movedTo!, 'workspace'))).toEqual(['repo']);
  });

  it('does nothing when there is no leftover folder', async () => {
    await expect(moveInterruptedTry(path.join(root, 'run'), path.join(root, 'run', 'm', 'agent_runs', 't', 'r1-try1'))).resolves.toBeUndefined();
  });
});
