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

describe('planDifference of the files an installed agent reads', () => {
  const template = { file: '/t/mine.md', sha256: 'a'.repeat(64) };
  const installed: RunPlan = { ...plan, variant: 'codex', agent: 'codex', instruction_template: template };

  it('names the flag, the recorded template and the given one', () => {
    expect(planDifference(installed, { ...installed, instruction_template: { file: '/t/other.md', sha256: 'b'.repeat(64) } })).toBe('--instruction-template: the run has /t/mine.md, this command asks for /t/other.md');
    expect(planDifference({ ...installed, instruction_template: null }, installed)).toBe('--instruction-template: the run has none (the shipped instruction), this command asks for /t/mine.md');
    expect(planDifference(installed, { ...installed })).toBeUndefined();
  });

  it('refuses a template or a definition file edited since the run started', () => {
    expect(planDifference(installed, { ...installed, instruction_template: { ...template, sha256: 'c'.repeat(64) } })).toBe(
      `--instruction-template: /t/mine.md changed since the run started (sha256 ${'a'.repeat(12)}… then, ${'c'.repeat(12)}… now)`,
    );
    const definition = { file: '/a/mine.yaml', sha256: 'd'.repeat(64) };
    const fromFile: RunPlan = { ...plan, variant: 'mine', agent: '/a/mine.yaml', agent_definition: definition };
    expect(planDifference(fromFile, { ...fromFile, agent_definition: { ...definition, sha256: 'e'.repeat(64) } })).toMatch(/^--agent: \/a\/mine.yaml changed since the run started/);
  });

  it('reads a plan written before the files were recorded as none', () => {
    expect(planDifference(plan, { ...plan, instruction_template: null, agent_definition: null })).toBeUndefined();
  });
});
