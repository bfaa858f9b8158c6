import { FAILURE_REASONS } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASON_PRECEDENCE, compareFailureReasons, isFailureReason, pickFailureReason } from './failure-precedence.js';

describe('FAILURE_REASON_PRECEDENCE', () => {
  it('ranks every FailureReason of the schema exactly once', () => {
    expect([...FAILURE_REASON_PRECEDENCE].sort()).toEqual([...FAILURE_REASONS].sort());
  });

  it('puts INTERRUPTED first and UNKNOWN last', () => {
    expect(FAILURE_REASON_PRECEDENCE[0]).toBe('INTERRUPTED');
    expect(FAILURE_REASON_PRECEDENCE.at(-1)).toBe('UNKNOWN');
  });
});

describe('pickFailureReason', () => {
  it('returns null when no stage failed', () => {
    expect(pickFailureReason([null, undefined, null])).toBeNull();
    expect(pickFailureReason([])).toBeNull();
  });

  it('prefers INTERRUPTED over SANDBOX_ERROR', () => {
    expect(pickFailureReason(['SANDBOX_ERROR', 'INTERRUPTED'])).toBe('INTERRUPTED');
  });

  it('prefers SANDBOX_ERROR over a failure of an earlier stage', () => {
    expect(pickFailureReason(['GIT_CLONE_FAILED', 'SANDBOX_ERROR'])).toBe('SANDBOX_ERROR');
  });

  it('prefers the earlier stage: SETUP_FAILED over TESTS_FAILED', () => {
    expect(pickFailureReason(['TESTS_FAILED', null, 'SETUP_FAILED'])).toBe('SETUP_FAILED');
  });

  it('prefers AGENT_GAVE_UP over TESTS_FAILED when the agent ran out of steps and the tests still fail', () => {
    expect(pickFailureReason(['AGENT_GAVE_UP', 'TESTS_FAILED'])).toBe('AGENT_GAVE_UP');
  });

  it('ranks SUSPECTED_TAMPERING after TESTS_TAMPERED and before what the budgets and tests say', () => {
    expect(pickFailureReason(['TESTS_FAILED', 'SUSPECTED_TAMPERING', 'TIMEOUT', 'AGENT_GAVE_UP'])).toBe('SUSPECTED_TAMPERING');
    expect(pickFailureReason(['SUSPECTED_TAMPERING', 'TESTS_TAMPERED'])).toBe('TESTS_TAMPERED');
    expect(pickFailureReason(['SUSPECTED_TAMPERING', 'TOOL_ERROR'])).toBe('TOOL_ERROR');
  });

  it('ranks TESTS_NOT_REPORTED after NO_TESTS_COLLECTED and before TESTS_FAILED', () => {
    expect(pickFailureReason(['TESTS_FAILED', 'TESTS_NOT_REPORTED'])).toBe('TESTS_NOT_REPORTED');
    expect(pickFailureReason(['TESTS_NOT_REPORTED', 'NO_TESTS_COLLECTED'])).toBe('NO_TESTS_COLLECTED');
    expect(pickFailureReason(['TESTS_NOT_REPORTED', 'AGENT_GAVE_UP'])).toBe('AGENT_GAVE_UP');
  });

  it('prefers LLM_ERROR over TIMEOUT', () => {
    expect(pickFailureReason(['TIMEOUT', 'LLM_ERROR'])).toBe('LLM_ERROR');
  });

  it('prefers any known reason over UNKNOWN', () => {
    expect(pickFailureReason(['UNKNOWN', 'TESTS_FAILED'])).toBe('TESTS_FAILED');
  });

  it('rejects a string that is not a FailureReason, naming its position', () => {
    // @ts-expect-error: a JavaScript caller can pass anything
    expect(() => pickFailureReason(['TESTS_FAILED', 'TEST_FAILED'])).toThrow(/candidates\[1\]: expected a FailureReason .* found "TEST_FAILED"/);
  });
});

describe('compareFailureReasons and isFailureReason', () => {
  it('sorts reasons by precedence', () => {
    const sorted = (['TESTS_FAILED', 'INTERRUPTED', 'SETUP_TIMEOUT'] as const).slice().sort(compareFailureReasons);
    expect(sorted).toEqual(['INTERRUPTED', 'SETUP_TIMEOUT', 'TESTS_FAILED']);
  });

  it('recognises only the schema strings', () => {
    expect(isFailureReason('TIMEOUT')).toBe(true);
    expect(isFailureReason('timeout')).toBe(false);
    expect(isFailureReason(3)).toBe(false);
  });
});
