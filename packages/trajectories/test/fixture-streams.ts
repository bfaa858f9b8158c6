import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { CassetteExchangeSchema, type CassetteExchange } from '@agentbench/schemas';

const folder = new URL('./fixtures/streams/', import.meta.url);

/** A real agent's captured stream (see fixtures/streams/README.md). */
export function streamFixture(agent: 'codex' | 'claude' | 'qwen'): string {
  return readFileSync(new URL(`${agent}.jsonl`, folder), 'utf8');
}

/** Qwen Code's `-o json` output of the same script: one JSON array. */
export function qwenJsonArrayFixture(): string {
  return readFileSync(new URL('qwen.json', folder), 'utf8');
}

/** The gateway's exchanges of the same run, checked against the cassette schema. */
export function cassetteFixture(agent: 'codex' | 'claude' | 'qwen'): CassetteExchange[] {
  return readFileSync(new URL(`${agent}.cassette.jsonl`, folder), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string })
    .filter((record) => record.type === 'exchange')
    .map((record) => v.parse(CassetteExchangeSchema, record));
}
