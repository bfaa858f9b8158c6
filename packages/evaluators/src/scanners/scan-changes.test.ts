import { describe, expect, it } from 'vitest';
import { MAX_SUSPICIONS, scanChanges } from './scan-changes.js';
import { defineScanner, type SuspicionFinding } from './scanner.js';

const PATCH = ['diff --git a/src/a.py b/src/a.py', '--- a/src/a.py', '+++ b/src/a.py', '@@ -1,1 +1,2 @@', ' x = 1', '+y = 2', ''].join('\n');

function scannerReturning(name: string, scan: () => unknown) {
  return defineScanner({ name, scan: scan as () => SuspicionFinding[] });
}

describe('scanChanges', () => {
  it('runs the plugins’ scanners after the built-in rules, naming the scanner of each suspicion', async () => {
    const everyAddedLine = defineScanner({
      name: 'every-added-line',
      scan: ({ files }) => files.flatMap((file) => file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind === 'added').map((line) => ({ rule: 'added', file: file.path, line: line.line, message: line.text })))),
    });
    expect(await scanChanges({ patch: PATCH, scanners: [everyAddedLine] })).toEqual([{ rule: 'added', scanner: 'every-added-line', file: 'src/a.py', line: 2, message: 'y = 2' }]);
  });

  it('a scanner that throws, returns a malformed finding or no list raises a scanner-failed suspicion naming it', async () => {
    const suspicions = await scanChanges({
      patch: PATCH,
      scanners: [
        scannerReturning('throws', () => {
          throw new Error('no parser for this');
        }),
        scannerReturning('bad-line', () => [{ rule: 'r', file: 'f', line: 0, message: 'm' }]),
        scannerReturning('no-list', () => 'nothing'),
      ],
    });
    expect(suspicions.map((suspicion) => [suspicion.rule, suspicion.scanner, suspicion.message])).toEqual([
      ['scanner-failed', 'throws', 'scanner "throws" threw: no parser for this'],
      ['scanner-failed', 'bad-line', 'scanner "bad-line" returned a malformed finding: [0].line: expected a line number >= 1 or null'],
      ['scanner-failed', 'no-list', 'scanner "no-list" returned string, not a list of findings'],
    ]);
  });

  it('a scanner past its time limit is abandoned as failed', async () => {
    const hangs = scannerReturning('hangs', () => new Promise(() => undefined));
    const [suspicion] = await scanChanges({ patch: PATCH, scanners: [hangs], timeoutMs: 50 });
    expect(suspicion).toMatchObject({ rule: 'scanner-failed', scanner: 'hangs', message: expect.stringContaining('did not finish within 50 ms') });
  });

  it('keeps a bounded number of suspicions, each of bounded length, and says how many more there were', async () => {
    const flood = scannerReturning('flood', () => Array.from({ length: MAX_SUSPICIONS + 5 }, (_, index) => ({ rule: 'r', file: 'f', line: index + 1, message: 'x'.repeat(10_000) })));
    const suspicions = await scanChanges({ patch: PATCH, scanners: [flood] });
    expect(suspicions).toHaveLength(MAX_SUSPICIONS);
    expect(Math.max(...suspicions.map((suspicion) => suspicion.message.length))).toBeLessThan(600);
    expect(suspicions.at(-1)?.message).toContain('(and 5 more suspicions not kept)');
  });
});
