/** `490123456` → `490,123,456`: byte counts people can read at a glance. */
export function formatByteCount(bytes: number): string {
  return Math.round(bytes).toLocaleString('en-US');
}

/**
 * The line put where output was cut: `[… 490,123,456 of 500,000,000 bytes dropped by agentbench …]`,
 * with `; log: PATH` when a log keeps more. The same words everywhere (logs, results), so
 * a reader (or grep) finds every cut the same way.
 */
export function droppedBytesMarker(input: { droppedBytes: number; totalBytes: number; logPath?: string }): string {
  const where = input.logPath === undefined ? '' : `; log: ${input.logPath}`;
  return `[… ${formatByteCount(input.droppedBytes)} of ${formatByteCount(input.totalBytes)} bytes dropped by agentbench${where} …]`;
}

/** Largest end ≤ `end` that does not cut a UTF-8 sequence. */
export function utf8Boundary(buffer: Buffer, end: number): number {
  let index = end;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let back = 0;
  while (index - back - 1 >= 0 && back < 4 && ((buffer[index - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const leadIndex = index - back - 1;
  if (leadIndex < 0) return index;
  const lead = buffer[leadIndex] ?? 0;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (length > back + 1) index = leadIndex;
  return index;
}

/** First index that is not a UTF-8 continuation byte (at most 3 skipped). */
export function utf8StartBoundary(buffer: Buffer): number {
  let index = 0;
  while (index < buffer.length && index < 3 && ((buffer[index] ?? 0) & 0xc0) === 0x80) index++;
  return index;
}
