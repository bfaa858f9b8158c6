import { describe, expect, it } from 'vitest';
import { encodeRequest, JsonLineDecoder, type ExecutorMessage } from './protocol.js';

function decodeAll(chunks: Buffer[]): ExecutorMessage[] {
  const messages: ExecutorMessage[] = [];
  const decoder = new JsonLineDecoder((message) => messages.push(message));
  for (const chunk of chunks) decoder.write(chunk);
  return messages;
}

describe('executor protocol framing', () => {
  it('encodes a request as one JSON line carrying its id', () => {
    const line = encodeRequest(7, { op: 'exec', argv: ['echo', 'a\nb'], timeout_ms: 1000 });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(JSON.parse(line)).toEqual({ id: 7, op: 'exec', argv: ['echo', 'a\nb'], timeout_ms: 1000 });
  });

  it('decodes several messages from one chunk', () => {
    const messages = decodeAll([Buffer.from('{"type":"ready","pid":1}\n{"id":1,"type":"exit","code":0}\n')]);
    expect(messages).toEqual([
      { type: 'ready', pid: 1 },
      { id: 1, type: 'exit', code: 0 },
    ]);
  });

  it('joins a message split across chunks at any byte, inside a multi-byte character too', () => {
    const line = Buffer.from(`${JSON.stringify({ id: 2, type: 'result', text: 'héllo wörld ✓ 😀' })}\n`);
    for (let cut = 1; cut < line.length; cut++) {
      const messages = decodeAll([line.subarray(0, cut), line.subarray(cut)]);
      expect(messages).toEqual([{ id: 2, type: 'result', text: 'héllo wörld ✓ 😀' }]);
    }
    const byteByByte = decodeAll([...line].map((byte) => Buffer.from([byte])));
    expect(byteByByte).toHaveLength(1);
  });

  it('keeps a partial line until its newline arrives, and skips empty lines', () => {
    const messages: ExecutorMessage[] = [];
    const decoder = new JsonLineDecoder((message) => messages.push(message));
    decoder.write(Buffer.from('\n\n{"id":3,"type":"res'));
    expect(messages).toEqual([]);
    expect(decoder.bufferedBytes).toBe('{"id":3,"type":"res'.length);
    decoder.write(Buffer.from('ult"}\n'));
    expect(messages).toEqual([{ id: 3, type: 'result' }]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('rejects a line that is not JSON, quoting it', () => {
    const decoder = new JsonLineDecoder(() => undefined);
    expect(() => decoder.write(Buffer.from('OCI runtime exec failed: exec: "python3": not found\n'))).toThrow(/not JSON: "OCI runtime exec failed/);
  });

  it('rejects JSON without a type', () => {
    const decoder = new JsonLineDecoder(() => undefined);
    expect(() => decoder.write(Buffer.from('{"id":1}\n'))).toThrow(/without a "type"/);
    expect(() => decoder.write(Buffer.from('[1,2]\n'))).toThrow(/without a "type"/);
  });
});
