import type { AgentLoopResult } from '@agentbench/agent-loop';
import type { AttemptRecord, FailureReason } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import type { VerdictOutcome } from '../verdict/final-verdict.js';
import { oracleRunOutcome } from './oracle-run-outcome.js';

function record(passed: boolean, failureReason: FailureReason | null): AttemptRecord {
  return { result: { passed, exit_code: passed ? 0 : 1, failure_reason: failureReason, stop_reason: 'AGENT_GAVE_UP' } } as unknown as AttemptRecord;
}

function loop(patchCount: number, message: string): AgentLoopResult {
  const patches = Array.from({ length: patchCount }, (_, index) => ({ step: index + 1, filesChanged: ['src/toy_calc/bounds.py'] }));
  return { stopReason: 'AGENT_GAVE_UP', failureReason: 'AGENT_GAVE_UP', passed: false, steps: 1, patches, message } as unknown as AgentLoopResult;
}

function verdict(failureReason: FailureReason | null): VerdictOutcome {
  return { failureReason, passed: failureReason === null, exitCode: failureReason === null ? 0 : 1, message: '', basis: 'exit_code', tamperedPaths: [], artifacts: {} };
}

describe('oracleRunOutcome', () => {
  it('takes the final test reason of a patch that applied, not the loop stop that outranks it', () => {
    // The oracle says "done" after applying: the loop records AGENT_GAVE_UP because the tests still fail.
    const outcome = oracleRunOutcome({ record: record(false, 'AGENT_GAVE_UP'), loop: loop(1, 'the agent stopped, saying it is done: the gold patch is applied'), verdict: verdict('TESTS_FAILED') });
    expect(outcome).toEqual({ kind: 'failed', reason: 'TESTS_FAILED' });
  });

  it('keeps what the final test saw beyond failing tests (no tests collected)', () => {
    expect(oracleRunOutcome({ record: record(false, 'AGENT_GAVE_UP'), loop: loop(1, 'done'), verdict: verdict('NO_TESTS_COLLECTED') })).toEqual({ kind: 'failed', reason: 'NO_TESTS_COLLECTED' });
  });

  it('says the patch did not apply when the loop applied none, with the first line of the refusal', () => {
    const message = 'the agent gave up: the gold patch did not apply: hunk 1 of 1 for src/x.py (@@ -1 +1 @@) does not match the file. It expects:\n    a';
    const outcome = oracleRunOutcome({ record: record(false, 'AGENT_GAVE_UP'), loop: loop(0, message), verdict: verdict('TESTS_FAILED') });
    expect(outcome).toEqual({
      kind: 'not_applied',
      reason: 'the reference patch did not apply (the agent gave up: the gold patch did not apply: hunk 1 of 1 for src/x.py (@@ -1 +1 @@) does not match the file. It expects:)',
    });
  });

  it('counts a pass and leaves infrastructure failures unjudged', () => {
    expect(oracleRunOutcome({ record: record(true, null), loop: loop(1, 'done'), verdict: verdict(null) })).toEqual({ kind: 'passed' });
    expect(oracleRunOutcome({ record: record(false, 'SANDBOX_ERROR'), loop: loop(0, 'engine gone') })).toEqual({ kind: 'errored', reason: 'SANDBOX_ERROR' });
  });

  it('falls back to the record when the agent never ran', () => {
    expect(oracleRunOutcome({ record: record(false, 'SETUP_FAILED') })).toEqual({ kind: 'failed', reason: 'SETUP_FAILED' });
  });
});
