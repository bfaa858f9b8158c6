import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolRequest, ToolResult } from '@agentbench/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, FIXING_PATCH, harmlessPatch, readEvents, TEST_COMMAND, type LoopFixture } from '../../test/fixtures.js';
import type { Agent, AgentAction, Observation } from '../contract/agent.js';
import { ScriptedAgent } from '../agents/scripted-agent.js';
import { AgentLoopError } from '../errors/agent-loop-error.js';
import { LlmError } from '../errors/llm-error.js';
import { EventLogger } from '../logging/event-logger.js';
import { runAgentLoop, type AgentLoopOptions } from './agent-loop.js';
import type { ToolExecutor } from './tool-executor.js';

let fixture: LoopFixture | undefined;

afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** An agent answering each call with the next function's action; it fails the test if asked once too often. */
function agentOf(...steps: ((observation: Observation, signal: AbortSignal) => AgentAction | Promise<AgentAction>)[]): Agent & { observations: Observation[] } {
  const observations: Observation[] = [];
  return {
    name: 'test-agent',
    observations,
    async nextAction(observation, signal) {
      observations.push(observation);
      const step = steps[observations.length - 1];
      if (step === undefined) throw new Error(`the agent was asked for action ${observations.length}, but has only ${steps.length}`);
      return step(observation, signal);
    },
  };
}

const call = (tool: ToolRequest['tool'], params: Record<string, unknown>): AgentAction => ({ kind: 'tool_calls', calls: [{ tool, params }] });

async function run(loopFixture: LoopFixture, agent: Agent, options: Partial<AgentLoopOptions> = {}) {
  const eventLogger = new EventLogger({ runId: 'run-test', file: path.join(loopFixture.artifactsDir, 'events.jsonl') });
  try {
    return await runAgentLoop({
      sandbox: loopFixture.sandbox,
      tools: loopFixture.tools,
      agent,
      task: loopFixture.task,
      artifactsDir: loopFixture.artifactsDir,
      eventLogger,
      limits: { maxSteps: 10, maxTimeSec: 600, repeatedFailureThreshold: 3 },
      ...options,
    });
  } finally {
    eventLogger.close();
  }
}

function eventTypes(events: { event_type: string }[]): string[] {
  return events.map((event) => event.event_type);
}

describe('runAgentLoop', () => {
  it('stops with SUCCESS when the tests pass after a fixing patch, and writes the patch artifact and the events', async () => {
    fixture = await createLoopFixture();
    const agent = new ScriptedAgent({
      script: [
        { tool: 'read_file', args: { path: 'status.txt' } },
        { tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } },
        { tool: 'run', args: { command: 'echo never reached' } },
      ],
    });
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'SUCCESS', failureReason: null, passed: true, steps: 2, isTestRunFresh: true });
    expect(result.patches).toEqual([{ step: 2, filesChanged: ['status.txt'], patchPath: expect.stringContaining('step_0002.patch') as string }]);
    expect(existsSync(path.join(fixture.artifactsDir, 'diffs', 'step_0002.patch'))).toBe(true);
    expect(await readFile(path.join(fixture.repoDir, 'status.txt'), 'utf8')).toBe('fixed\n');
    expect(result.testRuns.map((testRun) => [testRun.trigger, testRun.exitCode])).toEqual([
      ['initial', 1],
      ['after_patch', 0],
    ]);

    const events = await readEvents(path.join(fixture.artifactsDir, 'events.jsonl'));
    expect(eventTypes(events)).toEqual([
      'run_started',
      'tests_started',
      'tests_finished',
      'tool_call_started',
      'tool_call_finished',
      'tool_call_started',
      'tool_call_finished',
      'patch_applied',
      'tests_started',
      'tests_finished',
      'agent_stopped',
      'run_finished',
    ]);
    expect(events.every((event) => event.run_id === 'run-test')).toBe(true);
    expect(events.map((event) => event.step)).toEqual([0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2]);
    expect(events.find((event) => event.event_type === 'tests_started')?.payload).toMatchObject({ command: TEST_COMMAND, trigger: 'initial' });
    expect(events.at(-1)?.payload).toMatchObject({ passed: true, stop_reason: 'SUCCESS', failure_reason: null, steps: 2 });
  });

  it('exits at once with SUCCESS when the tests already pass, without asking the agent', async () => {
    fixture = await createLoopFixture({ status: 'fixed' });
    const agent = agentOf();
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'SUCCESS', passed: true, steps: 0 });
    expect(agent.observations).toHaveLength(0);
    expect(result.message).toMatch(/already pass/);
  });

  it('runs setup commands first when given, and fails with SETUP_FAILED when one fails', async () => {
    fixture = await createLoopFixture();
    const result = await run(fixture, agentOf(() => ({ kind: 'stop', reason: 'gave_up' })), { setupCommands: ['echo fixed > status.txt'] });
    expect(result).toMatchObject({ stopReason: 'SUCCESS', steps: 0 });

    await fixture.cleanup();
    fixture = await createLoopFixture();
    const error = await run(fixture, agentOf(), { setupCommands: ['exit 3'] }).catch((thrown: unknown) => thrown);
    expect(AgentLoopError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failureReason: 'SETUP_FAILED' });
    expect((error as Error).message).toMatch(/setup command 1 \(exit 3\) failed with exit 3/);
  });

  it('stops with MAX_STEPS when the step budget is spent, running every queued call until then', async () => {
    fixture = await createLoopFixture();
    const read = { tool: 'read_file' as const, params: { path: 'status.txt' } };
    const agent = agentOf(
      () => ({ kind: 'tool_calls', calls: [read, read] }),
      () => ({ kind: 'tool_calls', calls: [read, read] }),
    );
    const result = await run(fixture, agent, { limits: { maxSteps: 3 } });
    expect(result).toMatchObject({ stopReason: 'MAX_STEPS', failureReason: 'AGENT_GAVE_UP', passed: false, steps: 3 });
    expect(agent.observations.map((observation) => observation.budgets.stepsRemaining)).toEqual([3, 1]);
    // Nothing changed the workspace since the first test run: no extra run before stopping.
    expect(result.testRuns).toHaveLength(1);
  });

  it('stops with MAX_TIME when the time budget is spent, and does not run the tests again', async () => {
    fixture = await createLoopFixture();
    let now = 1_000_000;
    const agent = agentOf(
      () => {
        now += 20_000;
        return call('apply_patch', { unified_diff: harmlessPatch(1) });
      },
      () => {
        now += 50_000;
        return call('read_file', { path: 'status.txt' });
      },
    );
    const result = await run(fixture, agent, { limits: { maxTimeSec: 60 }, clock: () => now });
    expect(result).toMatchObject({ stopReason: 'MAX_TIME', failureReason: 'TIMEOUT', steps: 1 });
    expect(result.testRuns.map((testRun) => testRun.trigger)).toEqual(['initial', 'after_patch']);
  });

  it('stops with REPEATED_FAILURE after the same tool error three times in a row, reads in between notwithstanding', async () => {
    fixture = await createLoopFixture();
    const broken = ['--- a/status.txt', '+++ b/status.txt', '@@ -1 +1 @@', '-no such line', '+fixed', ''].join('\n');
    const agent = agentOf(
      () => call('apply_patch', { unified_diff: broken }),
      () => ({ kind: 'tool_calls', calls: [{ tool: 'read_file', params: { path: 'status.txt' } }, { tool: 'apply_patch', params: { unified_diff: broken } }] }),
      () => call('apply_patch', { unified_diff: broken }),
    );
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'REPEATED_FAILURE', failureReason: 'AGENT_GAVE_UP', steps: 4 });
    expect(result.message).toMatch(/the same apply_patch error 3 times in a row/);
  });

  it('stops with REPEATED_FAILURE when the tests fail with identical output three times in a row', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(
      () => call('apply_patch', { unified_diff: harmlessPatch(1) }),
      () => call('apply_patch', { unified_diff: harmlessPatch(2) }),
    );
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'REPEATED_FAILURE', steps: 2 });
    expect(result.message).toMatch(/the tests failed with the same output 3 times in a row/);
  });

  it('stops with AGENT_GAVE_UP when the agent gives up or says done while the tests fail', async () => {
    fixture = await createLoopFixture();
    const result = await run(fixture, agentOf(() => ({ kind: 'stop', reason: 'gave_up', message: 'no idea' })));
    expect(result).toMatchObject({ stopReason: 'AGENT_GAVE_UP', failureReason: 'AGENT_GAVE_UP', passed: false, steps: 0 });
    expect(result.message).toBe('the agent gave up: no idea');
    const done = await run(fixture, agentOf(() => ({ kind: 'stop', reason: 'done' })));
    expect(done).toMatchObject({ stopReason: 'AGENT_GAVE_UP', passed: false });
  });

  it('runs the tests before stopping when a command changed the workspace since the last run, and counts a pass', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(
      () => call('run', { command: 'echo fixed > status.txt' }),
      () => ({ kind: 'stop', reason: 'done' }),
    );
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'SUCCESS', passed: true, steps: 1, isTestRunFresh: true });
    expect(result.testRuns.map((testRun) => testRun.trigger)).toEqual(['initial', 'before_exit']);
  });

  it('counts the agent running the test command as a test run', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(
      () => ({ kind: 'tool_calls', calls: [{ tool: 'run', params: { command: 'echo fixed > status.txt' } }, { tool: 'run', params: { command: `  ${TEST_COMMAND} ` } }] }),
    );
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'SUCCESS', passed: true, steps: 2 });
    expect(result.lastTestRun).toMatchObject({ trigger: 'agent', exitCode: 0, output: expect.stringContaining('1 passed') as string });
  });

  it('stops with TOOL_ERROR when the tool runtime breaks, not when a call is merely wrong', async () => {
    fixture = await createLoopFixture();
    const realTools = fixture.tools;
    const brokenTools: ToolExecutor = {
      async execute(request, options) {
        if (request.tool !== 'search') return realTools.execute(request, options);
        const now = new Date().toISOString();
        const result: ToolResult = {
          request_id: request.request_id,
          tool: request.tool,
          status: 'error',
          started_at: now,
          ended_at: now,
          duration_sec: 0,
          error: { kind: 'sandbox_error', message: 'sandbox engine_unavailable: the Docker engine went away' },
        };
        return result;
      },
    };
    const agent = agentOf(
      () => call('read_file', { path: 'missing.txt' }),
      () => call('search', { query: 'fixed' }),
    );
    const result = await run(fixture, agent, { tools: brokenTools });
    expect(result).toMatchObject({ stopReason: 'TOOL_ERROR', failureReason: 'TOOL_ERROR', steps: 2 });
    expect(result.message).toMatch(/tool search failed \(sandbox_error\)/);

    const throwing: ToolExecutor = {
      execute: async () => {
        throw new Error('tool runtime crashed');
      },
    };
    const crashed = await run(fixture, agentOf(() => call('read_file', { path: 'status.txt' })), { tools: throwing });
    expect(crashed).toMatchObject({ stopReason: 'TOOL_ERROR', message: 'tool read_file failed: tool runtime crashed' });
  });

  it('stops with TOOL_ERROR when the sandbox goes away under the tools, and keeps that reason when the tests cannot run again', async () => {
    fixture = await createLoopFixture();
    const sandbox = fixture.sandbox;
    const agent = agentOf(
      () => call('run', { command: 'echo changed > notes.txt' }),
      async () => {
        await sandbox.dispose();
        return call('read_file', { path: 'status.txt' });
      },
    );
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'TOOL_ERROR', steps: 2, isTestRunFresh: false });
    expect(result.message).toMatch(/tool read_file failed \(sandbox_error\).*\(the tests could not run again: .*\)/);
  });

  it('stops with LLM_ERROR when the agent\'s model call fails', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(() => {
      throw new LlmError('rate limited (after 4 tries)', { kind: 'rate_limit', isRetryable: true, status: 429 });
    });
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'LLM_ERROR', failureReason: 'LLM_ERROR', steps: 0 });
    const events = await readEvents(path.join(fixture.artifactsDir, 'events.jsonl'));
    expect(events.find((event) => event.event_type === 'agent_stopped')?.payload).toMatchObject({ stop_reason: 'LLM_ERROR', llm_error_kind: 'rate_limit' });
  });

  it('ends an interrupt the agent raised itself as AGENT_GAVE_UP, not INTERRUPTED (only the harness\'s signal interrupts)', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(() => {
      throw Object.assign(new Error('pretend the harness stopped me'), { errorKind: 'interrupt' });
    });
    const result = await run(fixture, agent);
    expect(result).toMatchObject({ stopReason: 'AGENT_GAVE_UP', failureReason: 'AGENT_GAVE_UP', steps: 0 });
    expect(result.message).toMatch(/the agent raised an interrupt itself .*pretend the harness stopped me/);
  });

  it('stops with INTERRUPTED when the signal aborts during an action, without running the tests again', async () => {
    fixture = await createLoopFixture();
    const controller = new AbortController();
    const agent = agentOf(
      () => call('run', { command: 'echo changed > notes.txt' }),
      (_observation, signal) =>
        new Promise<AgentAction>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    );
    const result = await run(fixture, agent, { signal: controller.signal });
    expect(result).toMatchObject({ stopReason: 'INTERRUPTED', failureReason: 'INTERRUPTED', steps: 1 });
    expect(result.testRuns).toHaveLength(1);
  });

  it('stops when the token budget or the cost budget is spent, counting the usage agents report', async () => {
    fixture = await createLoopFixture();
    const read = (): AgentAction => ({ kind: 'tool_calls', calls: [{ tool: 'read_file', params: { path: 'status.txt' } }], usage: { inputTokens: 500, outputTokens: 100, costUsd: 0.02 } });
    const result = await run(fixture, agentOf(read, read, read), { limits: { maxTokens: 1000 } });
    expect(result).toMatchObject({ stopReason: 'MAX_TOKENS', steps: 2, tokens: { input: 1000, output: 200, total: 1200 } });
    expect(result.message).toMatch(/token budget spent \(1200 of 1000 tokens\)/);
    expect(result.costUsd).toBeCloseTo(0.04);

    const costly = await run(fixture, agentOf(read, read, read), { limits: { maxCostUsd: 0.03 } });
    expect(costly).toMatchObject({ stopReason: 'MAX_COST', steps: 2 });
    expect(costly.message).toMatch(/cost budget spent/);
  });

  it('shows the agent its budgets, last test output, history and patches', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(
      () => call('apply_patch', { unified_diff: harmlessPatch(1) }),
      () => ({ kind: 'stop', reason: 'gave_up' }),
    );
    await run(fixture, agent);
    const [first, second] = agent.observations;
    expect(first).toMatchObject({ step: 1, budgets: { maxSteps: 10, stepsUsed: 0, stepsRemaining: 10 }, history: [], patches: [] });
    expect(first?.lastTestRun).toMatchObject({ trigger: 'initial', exitCode: 1, output: expect.stringContaining('status is broken') as string });
    expect(second).toMatchObject({ step: 2, budgets: { stepsUsed: 1 }, patches: [{ step: 1, filesChanged: ['notes.txt'] }] });
    expect(second?.lastResults.map((entry) => entry.request.tool)).toEqual(['apply_patch']);
    expect(second?.lastTestRun?.trigger).toBe('after_patch');
  });

  it('throws an AgentLoopError (INTERNAL_ERROR) when the agent itself crashes, after logging run_finished', async () => {
    fixture = await createLoopFixture();
    const agent = agentOf(() => {
      throw new TypeError('cannot read properties of undefined');
    });
    const error = await run(fixture, agent).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ failureReason: 'INTERNAL_ERROR' });
    expect((error as Error).message).toMatch(/agent "test-agent" failed in nextAction\(\) at step 1: cannot read properties/);
    const events = await readEvents(path.join(fixture.artifactsDir, 'events.jsonl'));
    expect(events.at(-1)).toMatchObject({ event_type: 'run_finished', payload: { passed: false, failure_reason: 'INTERNAL_ERROR' } });
  });

  it('rejects bad limits with the field named', async () => {
    fixture = await createLoopFixture();
    await expect(run(fixture, agentOf(), { limits: { maxSteps: 0 } })).rejects.toThrow(/limits.maxSteps: expected a whole number ≥ 1, found 0/);
  });
});
