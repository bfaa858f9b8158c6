import type { RunPlan } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { assertSamePlan, planDifference } from './run-plan-check.js';

const plan: RunPlan = {
  version: 1,
  tasks: [{ id: 'task_a', file: '/tasks/a/task.yaml' }],
  models: [],
  runs: 1,
  variant: 'scripted',
  max_steps: null,
  retries: 2,
  skip_baseline: true,
  runtime: null,
  harness_version: '0.1.0',
};

describe('planDifference', () => {
  it('names a different runtime', () => {
    expect(planDifference(plan, { ...plan, runtime: 'runsc' })).toBe('runtime: the run has "runc", this command asks for "runsc"');
    expect(planDifference({ ...plan, runtime: 'runsc' }, plan)).toBe('runtime: the run has "runsc", this command asks for "runc"');
  });

  it('reads a plan written before the runtime was recorded as runc', () => {
    const { runtime: _runtime, ...older } = plan;
    expect(planDifference(older, plan)).toBeUndefined();
    expect(planDifference(older, { ...plan, runtime: 'runc' })).toBeUndefined();
    expect(planDifference(older, { ...plan, runtime: 'runsc' })).toBe('runtime: the run has "runc", this command asks for "runsc"');
  });

  it('refuses a resume with another plan in one message naming the folder and the field', () => {
    expect(() => assertSamePlan('/runs/r1', plan, { ...plan, variant: 'llm' })).toThrow(
      '/runs/r1 was started with another plan (variant: the run has "scripted", this command asks for "llm"); resume with the run\'s own options, or start a new run with --out',
    );
    expect(() => assertSamePlan('/runs/r1', plan, { ...plan })).not.toThrow();
  });
});
