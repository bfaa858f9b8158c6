import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { LocalSandbox } from '@agentbench/sandbox';
import { ConfigurationError } from '@agentbench/agent-loop';
import { AttemptRecordSchema, RunRecordSchema } from '@agentbench/schemas';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopFixture, FIXING_PATCH, readEvents, type LoopFixture } from '../../../agent-loop/test/fixtures.js';
import { ArtifactBudget } from '../artifacts/artifact-budget.js';
import { runAgentAttempt, type RunAgentAttemptOptions } from './run-agent-attempt.js';

let fixture: LoopFixture | undefined;

afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

async function attempt(loopFixture: LoopFixture, options: Partial<RunAgentAttemptOptions> = {}) {
  return runAgentAttempt({
    task: loopFixture.task,
    outDir: path.join(loopFixture.root, 'out'),
    createSandbox: (spec) => LocalSandbox.create(spec, { isWarningSilenced: true }),
    ...options,
  });
}

async function readJsonLines(file: string): Promise<unknown[]> {
  return (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
}

describe('runAgentAttempt (local sandbox)', () => {
  it('runs the scripted agent to a passing attempt and keeps every artifact under agent_runs/<task>/<ulid>/', async () => {
    fixture = await createLoopFixture({
      script: [
        { tool: 'list_files', args: {} },
        { tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } },
      ],
    });
    const { runDir, record, loop, message } = await attempt(fixture);
    expect(path.dirname(runDir)).toBe(path.join(fixture.root, 'out', 'agent_runs', 'shell_fixture'));
    expect(path.basename(runDir)).toBe(record.run_id);
    // Private: it holds a sandbox-written workspace.
    expect((await stat(runDir)).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(runDir, 'baseline', 'logs', 'run.log'))).toBe(true);
    expect(record).toMatchObject({
      schema_version: '0.1.0',
      task_id: 'shell_fixture',
      suite: 'unit',
      variant: 'scripted',
      model: null,
      baseline_validation: { attempted: true, failed_as_expected: true, exit_code: 1 },
      result: { passed: true, exit_code: 0, failure_reason: null, stop_reason: 'SUCCESS' },
      limits: { timeout_sec: 30, max_steps: 30, max_time_sec: 1800 },
      metrics: { steps: 2, tool_calls: 2, input_tokens: null, output_tokens: null, cost_usd: null },
      // The local backend cannot snapshot: the verdict's sandbox runs setup again.
      verdict_setup: 'rerun',
    });
    expect(message).toMatch(/^the tests pass in a fresh sandbox with the agent’s diff; the agent loop stopped with SUCCESS/);
    expect(loop?.patches).toHaveLength(1);
    expect(record.artifact_paths).toMatchObject({ events: 'events.jsonl', workspace: 'workspace', logs: 'logs', diffs: 'diffs', patch_files: 'diffs/step_0002.patch', attempt: 'attempt.json' });
    expect(existsSync(path.join(runDir, 'diffs', 'step_0002.patch'))).toBe(true);
    expect(await readFile(path.join(runDir, 'workspace', 'repo', 'status.txt'), 'utf8')).toBe('fixed\n');
    expect(existsSync(path.join(runDir, 'baseline', 'workspace'))).toBe(false);

    const [line] = await readJsonLines(path.join(runDir, 'attempts.jsonl'));
    expect(v.parse(AttemptRecordSchema, line)).toEqual(v.parse(AttemptRecordSchema, JSON.parse(await readFile(path.join(runDir, 'attempt.json'), 'utf8'))));
    const run = v.parse(RunRecordSchema, JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')));
    expect(run).toMatchObject({ kind: 'agent', status: 'completed', counts: { total: 1, passed: 1, failed: 0 } });
    const events = await readEvents(path.join(runDir, 'events.jsonl'));
    expect(events[0]).toMatchObject({ event_type: 'run_started', run_id: record.run_id, payload: { task_id: 'shell_fixture', variant: 'scripted' } });
    expect(events.at(-1)).toMatchObject({ event_type: 'run_finished', payload: { passed: true, stop_reason: 'SUCCESS' } });
  });

  it('records a baseline that does not fail and never runs the agent', async () => {
    fixture = await createLoopFixture({ status: 'fixed', script: [{ tool: 'list_files', args: {} }] });
    const { runDir, record, loop } = await attempt(fixture);
    expect(loop).toBeUndefined();
    expect(record.result).toMatchObject({ passed: false, failure_reason: 'BASELINE_NOT_FAILING', stop_reason: null, exit_code: 0 });
    expect(existsSync(path.join(runDir, 'events.jsonl'))).toBe(false);
  });

  it('skips the baseline when asked, and records a clone failure with its reason', async () => {
    fixture = await createLoopFixture({ script: [{ tool: 'list_files', args: {} }] });
    const { runDir, record } = await attempt(fixture, { task: { ...fixture.task, repoUrl: path.join(fixture.root, 'no-such-repository') }, skipBaseline: true });
    expect(existsSync(path.join(runDir, 'baseline'))).toBe(false);
    expect(record.baseline_validation).toEqual({ attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null });
    expect(record.result).toMatchObject({ passed: false, failure_reason: 'GIT_CLONE_FAILED' });
  });

  it('runs setup and records a failing setup command', async () => {
    fixture = await createLoopFixture({ setup: ['echo written > setup.txt', 'exit 7'], script: [{ tool: 'list_files', args: {} }] });
    const { runDir, record } = await attempt(fixture, { skipBaseline: true });
    expect(record.result).toMatchObject({ passed: false, failure_reason: 'SETUP_FAILED', exit_code: 7 });
    expect(existsSync(path.join(runDir, 'workspace', 'repo', 'setup.txt'))).toBe(true);
  });

  it('records AGENT_GAVE_UP when the script ends with the tests still failing', async () => {
    fixture = await createLoopFixture({ script: [{ tool: 'read_file', args: { path: 'status.txt' } }] });
    const { record } = await attempt(fixture, { skipBaseline: true, maxSteps: 5 });
    expect(record.result).toMatchObject({ passed: false, failure_reason: 'AGENT_GAVE_UP', stop_reason: 'AGENT_GAVE_UP', exit_code: 1 });
    expect(record.limits.max_steps).toBe(5);
  });

  it('fails before creating anything when the agent cannot be built', async () => {
    fixture = await createLoopFixture();
    const outDir = path.join(fixture.root, 'out');
    const error = await attempt(fixture, { variant: 'llm', environment: {}, outDir }).catch((thrown: unknown) => thrown);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/OPENROUTER_API_KEY: not set/);
    expect(existsSync(outDir) ? await readdir(outDir) : []).toEqual([]);
  });

  describe('the verdict comes from the agent’s diff alone', () => {
    const protectCheck = (loopFixture: LoopFixture, allowTestChanges = false): RunAgentAttemptOptions['task'] => ({
      ...loopFixture.task,
      task: { ...loopFixture.task.task, evaluation: { protected_paths: ['check.sh'], allow_test_changes: allowTestChanges } },
    });

    it('fails a rewritten test as TESTS_TAMPERED: the rewrite never reaches the fresh sandbox', async () => {
      fixture = await createLoopFixture({ script: [{ tool: 'run', args: { command: "printf 'echo 1 passed\\n' > check.sh && sh check.sh" } }] });
      const { runDir, record, message } = await attempt(fixture, { task: protectCheck(fixture), skipBaseline: true });
      expect(record.result).toMatchObject({ passed: false, failure_reason: 'TESTS_TAMPERED', tampered_paths: ['check.sh'], exit_code: 1 });
      expect(message).toMatch(/changed protected test files \(check.sh\); without them the tests still fail/);
      expect(await readFile(path.join(runDir, record.artifact_paths['tampered_patch'] as string), 'utf8')).toContain('+echo 1 passed');
      expect(await readFile(path.join(runDir, record.artifact_paths['agent_patch'] as string), 'utf8')).toBe('');
      // The agent's own tree keeps what it did; only the verdict ignores it.
      expect(await readFile(path.join(runDir, 'workspace', 'repo', 'check.sh'), 'utf8')).toBe('echo 1 passed\n');
    });

    it('fails a real fix that also touched the tests, and passes it when the task allows test changes', async () => {
      const script = [
        { tool: 'run', args: { command: 'echo "# reviewed" >> check.sh' } },
        { tool: 'apply_patch', args: { unified_diff: FIXING_PATCH } },
      ];
      fixture = await createLoopFixture({ script });
      const strict = await attempt(fixture, { task: protectCheck(fixture), skipBaseline: true });
      expect(strict.record.result).toMatchObject({ passed: false, failure_reason: 'TESTS_TAMPERED', exit_code: 0 });
      const allowed = await attempt(fixture, { task: protectCheck(fixture, true), skipBaseline: true });
      expect(allowed.record.result).toMatchObject({ passed: true, failure_reason: null, tampered_paths: ['check.sh'] });
      expect(await readFile(path.join(allowed.runDir, allowed.record.artifact_paths['agent_patch'] as string), 'utf8')).toContain('+# reviewed');
    });

    it('applies only the repository diff: what the agent left outside the repository does not count', async () => {
      fixture = await createLoopFixture({
        setup: ['mkdir -p ../site && echo broken > ../site/state'],
        script: [{ tool: 'run', args: { command: 'echo fixed > ../site/state && cp ../site/state status.txt && git diff --stat' } }],
      });
      const { runDir, record } = await attempt(fixture, { skipBaseline: true });
      // The copy into the repository is part of the diff; the file outside is not.
      expect(record.result).toMatchObject({ passed: true });
      const applied = await readFile(path.join(runDir, record.artifact_paths['agent_patch'] as string), 'utf8');
      expect(applied).toContain('status.txt');
      expect(applied).not.toContain('site/state');
    });
  });

  describe('the kept workspace', () => {
    it('holds no setuid file, FIFO or link out of it', async () => {
      fixture = await createLoopFixture({ script: [{ tool: 'run', args: { command: 'cp /bin/sh rootshell && chmod 4755 rootshell && mkfifo pipe && ln -s /etc etc-link && ln -s status.txt inside-link' } }] });
      const { runDir, record } = await attempt(fixture, { skipBaseline: true });
      const kept = path.join(runDir, 'workspace', 'repo');
      expect((await lstat(path.join(kept, 'rootshell'))).mode & 0o7000).toBe(0);
      expect(existsSync(path.join(kept, 'pipe'))).toBe(false);
      expect(existsSync(path.join(kept, 'etc-link'))).toBe(false);
      expect((await lstat(path.join(kept, 'inside-link'))).isSymbolicLink()).toBe(true);
      expect(record.artifact_paths['workspace_manifest']).toBeDefined();
      const run = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { details: { notes?: string[] } };
      expect(run.details.notes?.join(' ')).toMatch(/1 setuid\/setgid\/sticky bits stripped, 1 special files and 1 links out removed/);
    });

    it('is not kept when the run’s artifact budget is spent, and the record says so', async () => {
      fixture = await createLoopFixture({ script: [{ tool: 'list_files', args: {} }] });
      const { runDir, record } = await attempt(fixture, { skipBaseline: true, artifactBudget: new ArtifactBudget({ budgetBytes: 1 }) });
      expect(existsSync(path.join(runDir, 'workspace'))).toBe(false);
      expect(record.artifact_paths['workspace']).toBeUndefined();
      const run = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { details: { notes?: string[] } };
      expect(run.details.notes?.join(' ')).toMatch(/workspace of shell_fixture not kept: it takes .* artifact budget is left/);
    });
  });
});
