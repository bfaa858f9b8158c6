import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_LOG_CAP_BYTES } from '../core/output/command-log.js';
import type { ConformanceContext } from './conformance-context.js';

/** 24 MiB: well past the 10 MiB log cap, small enough not to take a shared machine's CPU for long. */
const FLOOD_BYTES = 24 * 1024 * 1024;

/** Output is sandbox-written: whatever a command prints, the result and the log stay bounded and say what they dropped. */
export function registerOutputChecks(context: ConformanceContext): void {
  context.check(
    'output.flood',
    'output',
    'caps a flood in the result (outputCapBytes) and in the log (10 MiB a stream, head and tail), naming the dropped bytes',
    async () => {
      const logDir = await mkdtemp(join(tmpdir(), 'agentbench-conformance-logs-'));
      try {
        const sandbox = await context.sandbox({ logDir });
        // 'A' (octal 101) appears nowhere else in the log: not in the command line nor the headers.
        const result = await sandbox.exec(`head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' '\\101'; echo tail-marker >&2`, {
          outputCapBytes: 64 * 1024,
          logName: 'flood',
          timeoutSec: 120,
        });
        const logPath = join(logDir, 'flood.log');
        expect(result).toMatchObject({ exitCode: 0, truncated: true, logTruncated: true, logPath, stderr: 'tail-marker\n' });
        expect(result.stdout.length).toBeLessThan(64 * 1024 + 300);
        expect(result.stdout).toMatch(new RegExp(`^A+\\n\\[… [\\d,]+ of ${FLOOD_BYTES.toLocaleString('en-US')} bytes dropped by agentbench; log: .*flood\\.log …\\]\\nA+$`));
        let floodBytes = 0;
        for await (const chunk of createReadStream(logPath)) {
          for (const byte of chunk as Buffer) if (byte === 0x41) floodBytes++;
        }
        expect(floodBytes).toBe(DEFAULT_LOG_CAP_BYTES);
        const log = await readFile(logPath);
        const marker = `A\n[… ${(FLOOD_BYTES - DEFAULT_LOG_CAP_BYTES).toLocaleString('en-US')} of ${FLOOD_BYTES.toLocaleString('en-US')} bytes dropped by agentbench …]\nA`;
        // Not toContain: a failure would print 10 MiB.
        expect(log.includes(marker), 'the marker between the head and the tail of the log').toBe(true);
        expect(log.subarray(log.length - 200).toString()).toMatch(/--- stderr ---\ntail-marker\n\n--- exit 0 after \d+ ms ---\n$/);
      } finally {
        await rm(logDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
}
