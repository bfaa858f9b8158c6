import { describe, expect, it } from 'vitest';
import { exchangeKey, maskVolatileText, normalizeRequestBody, requestHash } from './normalize-request.js';
import { OccurrenceCounter } from './occurrence-counter.js';

describe('request normalisation and hashing', () => {
  it('gives the same hash to bodies that differ only in key order', () => {
    const first = { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 };
    const second = { temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm' };
    expect(requestHash('POST /chat/completions', first)).toBe(requestHash('POST /chat/completions', second));
  });

  it('masks the seconds left, test durations, timestamps and ULIDs, so a replay of the same turn hashes the same', () => {
    const sent = (seconds: number, duration: string, ulid: string) => ({
      messages: [{ role: 'user', content: `step 2 of 30; ${seconds} s of 1800 s left\n1 passed in ${duration}\nlog: runs/${ulid}/logs/step_0002.log at 2026-01-31T12:00:0${seconds % 10}.000Z` }],
    });
    expect(requestHash('POST /chat/completions', sent(1799, '0.03s', '01JABCDEFGHJKMNPQRSTVWXYZ0'))).toBe(
      requestHash('POST /chat/completions', sent(1797, '0.41s', '01JZZZZZZZZZZZZZZZZZZZZZZ9')),
    );
    expect(JSON.stringify(normalizeRequestBody(sent(1799, '0.03s', '01JABCDEFGHJKMNPQRSTVWXYZ0')))).toContain('<duration> of <duration> left');
  });

  it("leaves out a CLI agent's client metadata and masks its session UUIDs (message ids) and its mktemp HOME", () => {
    const sent = (session: string, home: string) => ({
      model: 'gpt-5',
      prompt_cache_key: session,
      client_metadata: { 'x-codex-turn-metadata': `{"session_id":"${session}"}` },
      input: [{ id: `msg_${session}`, content: `skills in /tmp/agentbench-agent-home.${home}/.codex/skills` }, { output: `Chunk ID: ${home === 'ZQprOX' ? '82369e' : '35b59e'}` }],
    });
    expect(requestHash('POST /responses', sent('01a21ee4-327b-7683-bdc8-5c5c468ae664', 'ZQprOX'))).toBe(requestHash('POST /responses', sent('01a21edb-5ca3-7f91-aef5-0eae33edc6eb', 'nMN6nY')));
    expect(JSON.stringify(normalizeRequestBody(sent('01a21ee4-327b-7683-bdc8-5c5c468ae664', 'ZQprOX')))).toBe('{"input":[{"content":"skills in /tmp/agentbench-agent-home.<temp>/.codex/skills","id":"msg_<uuid>"},{"output":"Chunk ID: <chunk>"}],"model":"gpt-5"}');
  });

  it('tells apart a changed prompt, model, endpoint or step count', () => {
    const body = { model: 'm', messages: [{ role: 'system', content: 'You fix bugs.' }] };
    const hash = requestHash('POST /chat/completions', body);
    expect(requestHash('POST /chat/completions', { ...body, messages: [{ role: 'system', content: 'You fix bugs!' }] })).not.toBe(hash);
    expect(requestHash('POST /chat/completions', { ...body, model: 'n' })).not.toBe(hash);
    expect(requestHash('POST /responses', body)).not.toBe(hash);
    expect(requestHash('POST /chat/completions', { messages: [{ role: 'user', content: 'step 2 of 30' }] })).not.toBe(
      requestHash('POST /chat/completions', { messages: [{ role: 'user', content: 'step 3 of 30' }] }),
    );
  });

  it('counts occurrences per role and hash, and steps per role', () => {
    const counter = new OccurrenceCounter();
    expect(counter.next('agent', 'h1')).toEqual({ step: 1, occurrence: 1 });
    expect(counter.next('agent', 'h1')).toEqual({ step: 2, occurrence: 2 });
    expect(counter.next('judge', 'h1')).toEqual({ step: 1, occurrence: 1 });
    expect(counter.next('agent', 'h2')).toEqual({ step: 3, occurrence: 1 });
  });

  it('keeps repeats independent: the same request of repeat 0 and repeat 1 has different keys', () => {
    const hash = requestHash('POST /chat/completions', { model: 'm' });
    const ofRepeat = (repeatIndex: number) => exchangeKey({ requestHash: hash, occurrence: 1, repeatIndex });
    expect(ofRepeat(0)).not.toBe(ofRepeat(1));
    expect(ofRepeat(0)).toBe(`${hash}:1:0`);
  });
});

describe('maskVolatileText skips the patterns a text cannot match, with the same result', () => {
  const naive = (text: string): string =>
    text
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<timestamp>')
      .replace(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, '<ulid>')
      .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds)\b/g, '<duration>');
  it.each([
    'plain words only, nothing volatile',
    'a run id ABCDEFGHJKMNPQRSTVWXYZABCD made of letters only',
    'logs/01HZX3K4M5N6P7Q8R9S0T1V2W3/out.txt at 2025-01-01T00:00:00Z took 3.5 s',
    'ABCDEFGHJKMNPQRSTVWXYZABCDE is 27 long, ABCDEFGHJKMNPQRSTVWXYZABC is 25',
    `${'x'.repeat(100)} 1799 s of 1800 s left`,
  ])('%s', (text) => {
    expect(maskVolatileText(text)).toBe(naive(text));
  });
});
