import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { defaultWalkSettings, type WalkSettings } from '../../src/artifacts/directory-walk.js';

/** The two ways the artifact walks go down a tree; a walk's tests run under each. */
export const WALK_MODES: ReadonlyArray<{ name: string; settings: WalkSettings }> = [
  { name: 'through /proc/self/fd', settings: defaultWalkSettings },
  { name: 'by plain paths (no /proc)', settings: { useProcFileDescriptors: false } },
];

/**
 * Makes a chain of `depth` folders named `d` below `start` (deeper than PATH_MAX if asked: a child node goes down
 * through /proc/self/fd), with a file `f` in every folder (`files: 'every-level'`) or one file `bottom` in the last.
 */
export function makeDeepTree(start: string, depth: number, files: 'every-level' | 'bottom'): void {
  const script = `
    const fs = require('fs');
    let fd = fs.openSync(process.argv[1], 'r');
    for (let level = 0; level < Number(process.argv[2]); level++) {
      const next = '/proc/self/fd/' + fd + '/d';
      fs.mkdirSync(next);
      if (process.argv[3] === 'every-level') fs.writeFileSync('/proc/self/fd/' + fd + '/f', 'x');
      const child = fs.openSync(next, 'r');
      fs.closeSync(fd);
      fd = child;
    }
    if (process.argv[3] === 'bottom') fs.writeFileSync('/proc/self/fd/' + fd + '/bottom', 'x');
  `;
  const result = spawnSync(process.execPath, ['-e', script, start, String(depth), files], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
}
