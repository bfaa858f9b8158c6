import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildContainerLabels, LABEL_CREATED_AT, LABEL_HOSTNAME, LABEL_MANAGED, LABEL_PID, LABEL_RUN_ID, LABEL_TASK_ID } from './labels.js';

describe('buildContainerLabels', () => {
  const now = new Date('2026-01-02T03:04:05.000Z');

  it('always marks the container as ours with its creation time, creator pid and host', () => {
    expect(buildContainerLabels(undefined, now)).toEqual({
      [LABEL_MANAGED]: 'true',
      [LABEL_CREATED_AT]: '2026-01-02T03:04:05.000Z',
      [LABEL_PID]: String(process.pid),
      [LABEL_HOSTNAME]: hostname(),
    });
  });

  it('maps the spellings of run and task ids to the dev.agentbench labels', () => {
    for (const [runKey, taskKey] of [
      ['runId', 'taskId'],
      ['run-id', 'task-id'],
      ['run_id', 'task_id'],
    ] as const) {
      const labels = buildContainerLabels({ [runKey]: 'run-1', [taskKey]: 'task-1' }, now);
      expect(labels[LABEL_RUN_ID]).toBe('run-1');
      expect(labels[LABEL_TASK_ID]).toBe('task-1');
    }
  });

  it('keeps dotted keys as they are, prefixes the others, and protects its own labels', () => {
    const labels = buildContainerLabels({ 'com.example.team': 'x', attempt: '2', [LABEL_MANAGED]: 'false', [LABEL_PID]: '1' }, now);
    expect(labels['com.example.team']).toBe('x');
    expect(labels['dev.agentbench.attempt']).toBe('2');
    expect(labels[LABEL_MANAGED]).toBe('true');
    expect(labels[LABEL_PID]).toBe(String(process.pid));
  });
});
