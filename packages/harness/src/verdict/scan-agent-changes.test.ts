import path from 'node:path';
import { defineScanner } from '@agentbench/evaluators';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { scanAgentChanges } from './scan-agent-changes.js';

const directory = useTemporaryDirectory();

const APPLIED = ['diff --git a/src/pkg/__init__.py b/src/pkg/__init__.py', '--- a/src/pkg/__init__.py', '+++ b/src/pkg/__init__.py', '@@ -1,1 +1,2 @@', ' """Docs."""', '+import os; os._exit(0)', ''].join('\n');
const DROPPED = ['diff --git a/tox.ini b/tox.ini', '--- a/tox.ini', '+++ b/tox.ini', '@@ -1,1 +1,2 @@', ' [pytest]', '+addopts = -k "not median"', ''].join('\n');
const EVENT = { event_type: 'tool_call_started', timestamp: '2026-01-01T00:00:00.000Z', run_id: 'r', step: 1, payload: { request_id: 'q', tool: 'run', params: { command: 'pytest' } } };

describe('scanAgentChanges', () => {
  it('reads the applied and the dropped diff, and the events that parse, for the built-in rules and the plugins', async () => {
    const applied = await directory.write('verdict/agent.patch', APPLIED);
    const dropped = await directory.write('verdict/tampered.patch', DROPPED);
    const eventsFile = await directory.write('events.jsonl', `${JSON.stringify(EVENT)}\nnot json\n${JSON.stringify({ event_type: 'made_up' })}\n`);
    const seen: unknown[] = [];
    const recordEvents = defineScanner({
      name: 'events-seen',
      scan: ({ events }) => {
        seen.push(...events);
        return [];
      },
    });
    const suspicions = await scanAgentChanges({ patchFiles: [applied, dropped], eventsFile }, { scanners: [recordEvents] });
    expect(suspicions.map((suspicion) => [suspicion.rule, suspicion.file, suspicion.line])).toEqual([
      ['test-runner-config', 'tox.ini', 2],
      ['process-exit', 'src/pkg/__init__.py', 2],
    ]);
    expect(seen).toEqual([EVENT]);
  });

  it('a missing events file or patch is no change and no event', async () => {
    expect(await scanAgentChanges({ patchFiles: [path.join(directory.path, 'none.patch')], eventsFile: path.join(directory.path, 'none.jsonl') }, {})).toEqual([]);
  });
});
