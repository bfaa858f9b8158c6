import { describe, expect, it } from 'vitest';
import { failureReasonForStage } from './stage-failure.js';

describe('failureReasonForStage', () => {
  describe('git_clone and git_checkout', () => {
    it('maps a successful clone to no failure', () => {
      expect(failureReasonForStage({ stage: 'git_clone', exitCode: 0 })).toBeNull();
    });

    it('maps a non-zero git clone exit to GIT_CLONE_FAILED', () => {
      expect(failureReasonForStage({ stage: 'git_clone', exitCode: 128 })).toBe('GIT_CLONE_FAILED');
    });

    it('maps a git clone that timed out to GIT_CLONE_FAILED, not TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'git_clone', exitCode: 124, timedOut: true })).toBe('GIT_CLONE_FAILED');
    });

    it('maps a non-zero git checkout exit to GIT_CHECKOUT_FAILED', () => {
      expect(failureReasonForStage({ stage: 'git_checkout', exitCode: 1 })).toBe('GIT_CHECKOUT_FAILED');
    });
  });

  describe('setup', () => {
    it('maps a successful setup to no failure', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 0 })).toBeNull();
    });

    it('maps a non-zero setup exit to SETUP_FAILED', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 1 })).toBe('SETUP_FAILED');
    });

    it('maps setup exit code 124 to SETUP_TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 124 })).toBe('SETUP_TIMEOUT');
    });

    it('maps setup exit code 137 to SETUP_TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 137 })).toBe('SETUP_TIMEOUT');
    });

    it('maps a setup flagged timedOut to SETUP_TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 1, timedOut: true })).toBe('SETUP_TIMEOUT');
    });
  });

  describe('baseline_run', () => {
    it('maps baseline exit code 0 to BASELINE_NOT_FAILING', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 0 })).toBe('BASELINE_NOT_FAILING');
    });

    it('maps baseline exit code 1 to a valid baseline', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 1 })).toBeNull();
    });

    it('maps a baseline collection error (exit code 2) to a valid baseline', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 2 })).toBeNull();
    });

    it('maps baseline exit code 124 to TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 124 })).toBe('TIMEOUT');
    });

    it('maps baseline exit code 137 to TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 137 })).toBe('TIMEOUT');
    });

    it('maps a baseline with no tests collected to NO_TESTS_COLLECTED', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 5 })).toBe('NO_TESTS_COLLECTED');
    });

    it('maps a baseline whose command was not found to INTERNAL_ERROR', () => {
      expect(failureReasonForStage({ stage: 'baseline_run', exitCode: 127 })).toBe('INTERNAL_ERROR');
    });
  });

  describe('agent_run', () => {
    it('maps stop reason SUCCESS to no failure', () => {
      expect(failureReasonForStage({ stage: 'agent_run', stopReason: 'SUCCESS' })).toBeNull();
    });

    it('maps stop reason MAX_STEPS to AGENT_GAVE_UP', () => {
      expect(failureReasonForStage({ stage: 'agent_run', stopReason: 'MAX_STEPS' })).toBe('AGENT_GAVE_UP');
    });

    it('maps stop reason LLM_ERROR to LLM_ERROR', () => {
      expect(failureReasonForStage({ stage: 'agent_run', stopReason: 'LLM_ERROR' })).toBe('LLM_ERROR');
    });

    it('maps an agent run known only by its test exit code like a test run', () => {
      expect(failureReasonForStage({ stage: 'agent_run', exitCode: 1 })).toBe('TESTS_FAILED');
    });

    it('asks for the stop reason when the agent run has neither stop reason nor exit code', () => {
      expect(() => failureReasonForStage({ stage: 'agent_run' })).toThrow('outcome.stopReason: stage agent_run needs the stop reason');
    });
  });

  describe('final_test', () => {
    it('maps final test exit code 0 to no failure', () => {
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 0 })).toBeNull();
    });

    it('maps final test exit code 1 to TESTS_FAILED', () => {
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 1 })).toBe('TESTS_FAILED');
    });

    it('maps final test exit code 5 to NO_TESTS_COLLECTED', () => {
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 5 })).toBe('NO_TESTS_COLLECTED');
    });

    it('maps final test exit code 137 to TIMEOUT', () => {
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 137 })).toBe('TIMEOUT');
    });

    it('asks for the exit code when it is missing', () => {
      expect(() => failureReasonForStage({ stage: 'final_test' })).toThrow(
        'outcome.exitCode: stage final_test needs the exit code of its command',
      );
    });
  });

  describe('exceptions and interrupts, checked before the stage', () => {
    it('maps an interrupted stage to INTERRUPTED even when it also threw', () => {
      expect(failureReasonForStage({ stage: 'setup', isInterrupted: true, error: new Error('x'), exitCode: 1 })).toBe('INTERRUPTED');
    });

    it('maps an exception in any stage to its classification before looking at the exit code', () => {
      const sandboxError = Object.assign(new Error('container vanished'), { [Symbol.for('agentbench.sandbox-error')]: true });
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 0, error: sandboxError })).toBe('SANDBOX_ERROR');
    });

    it('maps an unclassified exception to INTERNAL_ERROR', () => {
      expect(failureReasonForStage({ stage: 'git_clone', error: new RangeError('bug') })).toBe('INTERNAL_ERROR');
    });

    it('maps an out-of-memory kill to SANDBOX_ERROR, except in setup', () => {
      expect(failureReasonForStage({ stage: 'final_test', exitCode: 137, killedBy: 'oom' })).toBe('SANDBOX_ERROR');
    });

    it('maps an out-of-memory setup command to SETUP_FAILED: the task setup failed within its limits', () => {
      expect(failureReasonForStage({ stage: 'setup', exitCode: 137, killedBy: 'oom' })).toBe('SETUP_FAILED');
    });
  });

  it('rejects an unknown stage, listing the stages', () => {
    // @ts-expect-error: a JavaScript caller can pass anything
    expect(() => failureReasonForStage({ stage: 'install', exitCode: 1 })).toThrow(
      'outcome.stage: expected one of git_clone, git_checkout, setup, baseline_run, agent_run, final_test, found "install"',
    );
  });
});
