import { FAILURE_REASONS } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { attributeFailure, FAILURE_CLASSES, failureClassOf, failureClassOfRecord, RUN_STOPPED_CAUSE } from './failure-class.js';

describe('failureClassOf', () => {
  it('gives every FailureReason a class, before and after the agent ran', () => {
    for (const reason of FAILURE_REASONS) {
      expect(FAILURE_CLASSES).toContain(failureClassOf(reason, { stage: 'setup' }));
      expect(FAILURE_CLASSES).toContain(failureClassOf(reason, { stage: 'agent_run' }));
    }
  });

  it('makes a sandbox that died before the agent ran infra, and one that died in its own command agent', () => {
    expect(failureClassOf('SANDBOX_ERROR', { stage: 'git_clone' })).toBe('infra');
    expect(failureClassOf('SANDBOX_ERROR', { stage: 'setup' })).toBe('infra');
    expect(failureClassOf('SANDBOX_ERROR', { stage: 'agent_run' })).toBe('agent');
    expect(failureClassOf('SANDBOX_ERROR', { stage: 'final_test' })).toBe('agent');
  });

  it('takes an unknown stage as after the agent ran, so old records never leave a pass rate', () => {
    expect(failureClassOf('SANDBOX_ERROR')).toBe('agent');
    expect(failureClassOf('INTERNAL_ERROR', { stage: null })).toBe('agent');
  });

  it('classes an interrupt as infra only when the harness\'s own abort ended the attempt', () => {
    expect(failureClassOf('INTERRUPTED', { stage: 'agent_run', isHarnessAbort: true })).toBe('infra');
    expect(failureClassOf('INTERRUPTED', { stage: 'setup', isHarnessAbort: true })).toBe('infra');
    // An agent that raises an interrupt itself (or a test command exiting 130) is not the harness.
    expect(failureClassOf('INTERRUPTED', { stage: 'agent_run', isHarnessAbort: false })).toBe('agent');
    expect(failureClassOf('INTERRUPTED', { stage: 'agent_run' })).toBe('agent');
  });

  it('classes an LLM error as infra only when the model proxy saw the endpoint fail', () => {
    expect(failureClassOf('LLM_ERROR', { stage: 'agent_run', endpointFailure: 'HTTP 503 from the endpoint' })).toBe('infra');
    // A bad request of the agent's, or an error it declared with errorKind 'llm', has no such evidence.
    expect(failureClassOf('LLM_ERROR', { stage: 'agent_run', endpointFailure: null })).toBe('agent');
    expect(failureClassOf('LLM_ERROR', { stage: 'agent_run', endpointFailure: '' })).toBe('agent');
    expect(failureClassOf('LLM_ERROR', { stage: 'agent_run' })).toBe('agent');
  });

  it('makes a setup failure after the agent ran (its diff does not apply in the verdict sandbox) the agent\'s', () => {
    expect(failureClassOf('SETUP_FAILED', { stage: 'final_test' })).toBe('agent');
    expect(failureClassOf('SETUP_TIMEOUT', { stage: 'final_test' })).toBe('agent');
    expect(failureClassOf('SETUP_FAILED', { stage: 'setup' })).toBe('task');
    expect(failureClassOf('SETUP_TIMEOUT', { stage: 'setup' })).toBe('task');
  });

  it('classes setup, baseline and repository failures as task, budgets and tests as agent', () => {
    for (const reason of ['SETUP_FAILED', 'BASELINE_NOT_FAILING', 'BASELINE_MISMATCH', 'BASELINE_FLAKY', 'GIT_CLONE_FAILED', 'GIT_CHECKOUT_FAILED'] as const) {
      expect(failureClassOf(reason, { stage: 'setup' })).toBe('task');
    }
    for (const reason of ['TESTS_FAILED', 'AGENT_GAVE_UP', 'TIMEOUT', 'TOOL_ERROR', 'TESTS_TAMPERED', 'SUSPECTED_TAMPERING'] as const) {
      expect(failureClassOf(reason, { stage: 'agent_run' })).toBe('agent');
    }
    expect(failureClassOf('NO_TESTS_COLLECTED', { stage: 'baseline_run' })).toBe('task');
    expect(failureClassOf('NO_TESTS_COLLECTED', { stage: 'final_test' })).toBe('agent');
  });

  it('classes a missing test report as the task’s at the baseline and the agent’s after its diff', () => {
    expect(failureClassOf('TESTS_NOT_REPORTED', { stage: 'baseline_run' })).toBe('task');
    expect(failureClassOf('TESTS_NOT_REPORTED', { stage: 'baseline' })).toBe('task');
    expect(failureClassOf('TESTS_NOT_REPORTED', { stage: 'final_test' })).toBe('agent');
  });

  it('makes a clone that failed for want of a network infra, naming git\'s words', () => {
    expect(failureClassOf('GIT_CLONE_FAILED', { stage: 'git_clone', networkFailure: 'Could not resolve host: github.com' })).toBe('infra');
    expect(attributeFailure('GIT_CLONE_FAILED', { stage: 'git_clone', networkFailure: 'Could not resolve host: github.com' }).cause).toBe(
      "the network is unreachable (git: Could not resolve host: github.com): the machine's, not the task's",
    );
    expect(failureClassOf('GIT_CLONE_FAILED', { stage: 'git_clone', networkFailure: null })).toBe('task');
    expect(failureClassOf('GIT_CHECKOUT_FAILED', { stage: 'git_checkout', networkFailure: 'Could not resolve host: github.com' })).toBe('task');
  });

  it('rejects a reason outside the taxonomy, naming the expected values', () => {
    expect(() => failureClassOf('BROKEN' as never)).toThrow(/expected one of SETUP_FAILED/);
  });
});

describe('attributeFailure', () => {
  it('says on what evidence it blamed the harness, the endpoint or the agent', () => {
    expect(attributeFailure('INTERRUPTED', { stage: 'agent_run', isHarnessAbort: true })).toEqual({ failureClass: 'infra', cause: RUN_STOPPED_CAUSE });
    expect(attributeFailure('INTERRUPTED', { stage: 'agent_run' }).cause).toMatch(/without the harness aborting/);
    expect(attributeFailure('LLM_ERROR', { stage: 'agent_run', endpointFailure: 'the endpoint answered HTTP 503' })).toEqual({
      failureClass: 'infra',
      cause: "the LLM endpoint failed (seen by the attempt's model proxy): the endpoint answered HTTP 503",
    });
    expect(attributeFailure('LLM_ERROR', { stage: 'final_test' }).cause).toMatch(/agent's own request was refused/);
    expect(attributeFailure('SETUP_FAILED', { stage: 'final_test' })).toMatchObject({ failureClass: 'agent', cause: expect.stringMatching(/its diff does not set up in the verdict sandbox/) });
    expect(attributeFailure('SANDBOX_ERROR', { stage: 'setup' })).toMatchObject({ failureClass: 'infra', cause: 'ended in setup, before the agent ran: the engine or the host' });
  });
});

describe('failureClassOfRecord', () => {
  it('keeps a written class and derives one for records without it', () => {
    expect(failureClassOfRecord({ failure_class: 'infra', result: { passed: false, failure_reason: 'TESTS_FAILED' } })).toBe('infra');
    expect(failureClassOfRecord({ failure_stage: 'git_clone', result: { passed: false, failure_reason: 'SANDBOX_ERROR' } })).toBe('infra');
    expect(failureClassOfRecord({ result: { passed: false, failure_reason: 'SANDBOX_ERROR' } })).toBe('agent');
    expect(failureClassOfRecord({ result: { passed: true, failure_reason: null } })).toBeNull();
    // An old record carries no evidence that the harness interrupted it: counted, not kept out.
    expect(failureClassOfRecord({ failure_stage: 'agent_run', result: { passed: false, failure_reason: 'INTERRUPTED' } })).toBe('agent');
  });
});
