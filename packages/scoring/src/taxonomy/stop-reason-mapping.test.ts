import { STOP_REASONS } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { STOP_REASON_FAILURES, failureReasonForStopReason } from './stop-reason-mapping.js';

describe('failureReasonForStopReason', () => {
  it('maps SUCCESS to no failure', () => {
    expect(failureReasonForStopReason('SUCCESS')).toBeNull();
  });

  it('maps MAX_STEPS to AGENT_GAVE_UP', () => {
    expect(failureReasonForStopReason('MAX_STEPS')).toBe('AGENT_GAVE_UP');
    // Token and cost budgets are spent budgets too.
    expect(failureReasonForStopReason('MAX_TOKENS')).toBe('AGENT_GAVE_UP');
    expect(failureReasonForStopReason('MAX_COST')).toBe('AGENT_GAVE_UP');
  });

  it('maps MAX_TIME to TIMEOUT', () => {
    expect(failureReasonForStopReason('MAX_TIME')).toBe('TIMEOUT');
  });

  it('maps REPEATED_FAILURE to AGENT_GAVE_UP', () => {
    expect(failureReasonForStopReason('REPEATED_FAILURE')).toBe('AGENT_GAVE_UP');
  });

  it('maps AGENT_GAVE_UP to AGENT_GAVE_UP', () => {
    expect(failureReasonForStopReason('AGENT_GAVE_UP')).toBe('AGENT_GAVE_UP');
  });

  it('maps LLM_ERROR to LLM_ERROR', () => {
    expect(failureReasonForStopReason('LLM_ERROR')).toBe('LLM_ERROR');
  });

  it('maps TOOL_ERROR to TOOL_ERROR', () => {
    expect(failureReasonForStopReason('TOOL_ERROR')).toBe('TOOL_ERROR');
  });

  it('maps INTERRUPTED to INTERRUPTED', () => {
    expect(failureReasonForStopReason('INTERRUPTED')).toBe('INTERRUPTED');
  });

  it('has a mapping for every stop reason of the schema', () => {
    expect(Object.keys(STOP_REASON_FAILURES).sort()).toEqual([...STOP_REASONS].sort());
  });

  it('rejects an unknown stop reason, listing the accepted ones', () => {
    // @ts-expect-error: a JavaScript caller can pass anything
    expect(() => failureReasonForStopReason('BORED')).toThrow(/stopReason: expected one of SUCCESS, MAX_STEPS.*found "BORED"/);
  });
});
