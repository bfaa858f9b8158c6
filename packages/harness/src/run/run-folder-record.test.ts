import type { AttemptRecord } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { runFolderRecord } from './run-folder-record.js';

describe('runFolderRecord', () => {
  it('makes the try\'s artifact paths relative to the run folder, lists included, absolute paths kept', () => {
    const record = {
      artifact_paths: { events: 'events.jsonl', attempt: 'attempt.json', patch_files: 'diffs/step_0001.patch,diffs/step_0002.patch', image: '/abs/image.tar' },
    } as unknown as AttemptRecord;
    const copy = runFolderRecord(record, '/runs/r1', '/runs/r1/scripted/agent_runs/toy/r1-try2');
    expect(copy.artifact_paths).toEqual({
      events: 'scripted/agent_runs/toy/r1-try2/events.jsonl',
      attempt: 'scripted/agent_runs/toy/r1-try2/attempt.json',
      patch_files: 'scripted/agent_runs/toy/r1-try2/diffs/step_0001.patch,scripted/agent_runs/toy/r1-try2/diffs/step_0002.patch',
      image: '/abs/image.tar',
    });
    // The try's own copy is untouched.
    expect(record.artifact_paths['events']).toBe('events.jsonl');
  });
});
