import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemporaryDirectory } from '../../../test/helpers/git-repository.js';
import { defaultReplayFolder } from './replay-folder.js';

let root: string;
beforeEach(() => {
  root = makeTemporaryDirectory('replay-folder');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function attemptFolder(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  // An attempt's own run.json has no plan.
  await writeFile(path.join(folder, 'run.json'), JSON.stringify({ run_id: 'x', kind: 'agent' }));
  return folder;
}

describe('defaultReplayFolder', () => {
  it('puts the replay of an ab run try into the run\'s replays/, not among its attempts', async () => {
    const runDir = path.join(root, 'run');
    const tryDir = await attemptFolder(path.join(runDir, 'scripted', 'agent_runs', 'toy', 'r1-try1'));
    await writeFile(path.join(runDir, 'run.json'), JSON.stringify({ run_id: 'r', kind: 'agent', plan: { version: 1 } }));
    await expect(defaultReplayFolder(tryDir)).resolves.toBe(path.join(runDir, 'replays'));
  });

  it('puts the replay of an ab run-agent attempt into replays/ beside its agent_runs/', async () => {
    const out = path.join(root, 'artifacts');
    const attemptDir = await attemptFolder(path.join(out, 'agent_runs', 'toy', '01JATTEMPT'));
    await expect(defaultReplayFolder(attemptDir)).resolves.toBe(path.join(out, 'replays'));
  });
});
