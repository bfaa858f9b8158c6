import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

describe('OutputCapture', () => {
  it('keeps everything under the cap, unmarked', () => {
    const capture = new OutputCapture(100);
    capture.push(Buffer.from('hello '));
    capture.push(Buffer.from('world'));
    expect(capture.isTruncated).toBe(false);
    expect(capture.text('/logs/a.log')).toBe('hello world');
    expect(capture.byteCount).toBe(11);
  });

  it('keeps the head and the tail of a long stream and names the log in the marker', () => {
    const capture = new OutputCapture(10);
    capture.push(Buffer.from('0123456789'));
    capture.push(Buffer.from('abcdefghij'));
    capture.push(Buffer.from('ABCDEFGHIJ'));
    expect(capture.isTruncated).toBe(true);
    expect(capture.text('/logs/a.log')).toBe('01234\n[… 20 of 30 bytes dropped by agentbench; log: /logs/a.log …]\nFGHIJ');
  });

  it('bounds memory while a flood streams through', () => {
    const capture = new OutputCapture(1000);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let index = 0; index < 200; index++) capture.push(chunk);
    const text = capture.text();
    expect(capture.byteCount).toBe(200 * 64 * 1024);
    expect(text.length).toBeLessThan(1200);
    expect(text).toContain(`[… ${(200 * 64 * 1024 - 1000).toLocaleString('en-US')} of ${(200 * 64 * 1024).toLocaleString('en-US')} bytes dropped by agentbench …]`);
  });

  it('never cuts a multi-byte character at the cut points', () => {
    const capture = new OutputCapture(6);
    capture.push(Buffer.from('ééééééééé'));
    const text = capture.text();
    expect(text).not.toContain('\uFFFD');
    // 3 bytes each side: one whole 2-byte character, the half one dropped (and counted as dropped).
    expect(text).toBe('é\n[… 14 of 18 bytes dropped by agentbench …]\né');
  });

  it('hands whole characters to the streaming callback even when a chunk splits one', () => {
    const pieces: string[] = [];
    const capture = new OutputCapture(100, (text) => pieces.push(text));
    const bytes = Buffer.from('aé€b');
    capture.push(bytes.subarray(0, 2));
    capture.push(bytes.subarray(2, 5));
    capture.push(bytes.subarray(5));
    capture.end();
    expect(pieces.join('')).toBe('aé€b');
    expect(pieces.every((piece) => !piece.includes('\uFFFD'))).toBe(true);
  });
});
