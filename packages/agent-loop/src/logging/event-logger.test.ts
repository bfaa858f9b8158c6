import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentEventSchema } from '@agentbench/schemas';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EventLogger } from './event-logger.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';

const temporary = useTemporaryDirectory({ prefix: 'event-logger-test-' });

describe('EventLogger', () => {
  it('writes each event as one schema-valid line before emit returns, appending to an existing file', async () => {
    const file = path.join(temporary.path, 'nested', 'events.jsonl');
    const seen: string[] = [];
    const logger = new EventLogger({ runId: 'r1', file, now: () => new Date('2025-01-02T03:04:05.000Z'), onEvent: (event) => seen.push(event.event_type) });
    logger.emit('run_started', { task_id: 't', variant: 'scripted' }, 0);
    // Written through: readable before close.
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(2);
    logger.emit('tests_finished', { exit_code: 1, passed: false }, 0);
    logger.close();
    const again = new EventLogger({ runId: 'r2', file });
    again.emit('agent_stopped', { stop_reason: 'MAX_STEPS', message: 'spent' });
    again.close();

    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((line) => v.parse(AgentEventSchema, JSON.parse(line)));
    expect(lines.map((event) => [event.event_type, event.run_id, event.step])).toEqual([
      ['run_started', 'r1', 0],
      ['tests_finished', 'r1', 0],
      ['agent_stopped', 'r2', null],
    ]);
    expect(lines[0]?.timestamp).toBe('2025-01-02T03:04:05.000Z');
    expect(seen).toEqual(['run_started', 'tests_finished']);
    expect(logger.events).toHaveLength(2);
  });

  it('keeps running when a listener throws', () => {
    const logger = new EventLogger({ runId: 'r', onEvent: () => {
      throw new Error('terminal closed');
    } });
    expect(() => logger.emit('run_started', { task_id: 't' })).not.toThrow();
  });
});
