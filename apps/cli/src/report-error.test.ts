import { AgentLoopError, ConfigurationError as AgentLoopConfigurationError } from '@agentbench/agent-loop';
import { EvaluatorsError } from '@agentbench/evaluators';
import { FakeLlmServerError } from '@agentbench/fake-llm-server';
import { ConfigurationError as HarnessConfigurationError, HarnessError } from '@agentbench/harness';
import { ReportError } from '@agentbench/report';
import { SandboxError } from '@agentbench/sandbox';
import { ScenarioRunnerError } from '@agentbench/scenario-runner';
import { AgentBenchError, ConfigurationError, SchemasError } from '@agentbench/schemas';
import { ScoringError } from '@agentbench/scoring';
import { SwebenchError } from '@agentbench/swebench';
import { GlobSyntaxError, ToolsError } from '@agentbench/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isUserError, reportError } from './report-error.js';
import { UsageError } from './usage-error.js';

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

// One error of every package (its base, and the loose ones that used to extend Error directly).
const packageErrors: [string, Error][] = [
  ['SchemasError', new SchemasError('schemas')],
  ['SandboxError', new SandboxError('invalid_spec', 'sandbox')],
  ['ScoringError', new ScoringError('judgment.threshold', 'scoring')],
  ['ToolsError', new ToolsError('tools')],
  ['GlobSyntaxError', new GlobSyntaxError('unclosed [ in the glob')],
  ['AgentLoopError', new AgentLoopError('agent loop')],
  ['EvaluatorsError', new EvaluatorsError('evaluators')],
  ['HarnessError', new HarnessError('harness')],
  ['ScenarioRunnerError', new ScenarioRunnerError('configuration', 'scenario runner')],
  ['ReportError', new ReportError('report')],
  ['SwebenchError', new SwebenchError('swebench')],
  ['FakeLlmServerError', new FakeLlmServerError('fake llm server')],
  ['ConfigurationError', new ConfigurationError('field', 'configuration')],
  ['UsageError', new UsageError('usage')],
];

describe('the error base', () => {
  it.each(packageErrors)('%s is an AgentBenchError', (name, error) => {
    expect(error.name).toBe(name);
    expect(AgentBenchError.isInstance(error)).toBe(true);
    expect(isUserError(error)).toBe(true);
  });

  it('has one ConfigurationError, whichever package it is imported from', () => {
    expect(AgentLoopConfigurationError).toBe(ConfigurationError);
    expect(HarnessConfigurationError).toBe(ConfigurationError);
  });

  it('does not take a plain Error, or a thrown string, for a user error', () => {
    expect(isUserError(new Error('bug'))).toBe(false);
    expect(isUserError(new TypeError('bug'))).toBe(false);
    expect(isUserError('bug')).toBe(false);
  });
});

describe('reportError', () => {
  const written: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    written.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });

  it('prints a user error on one line and exits 1', () => {
    capture();
    expect(reportError(new ConfigurationError('OPENROUTER_API_KEY', 'not set'), { isVerbose: false })).toBe(1);
    expect(written).toEqual(['ab: OPENROUTER_API_KEY: not set\n']);
  });

  it('recognises a user error from another copy of a package by its marker', () => {
    capture();
    const foreign = Object.assign(new Error('from another copy'), { [Symbol.for('agentbench.error')]: true });
    expect(reportError(foreign, { isVerbose: false })).toBe(1);
    expect(written).toEqual(['ab: from another copy\n']);
  });

  it('prints anything else as an internal error with a pointer to --verbose, and exits 2', () => {
    capture();
    expect(reportError(new Error('boom'), { isVerbose: false })).toBe(2);
    expect(written).toEqual(['ab: internal error: boom\n', 'ab: run again with --verbose for details, and report it if it persists\n']);
  });
});
