import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalSandbox } from '@agentbench/sandbox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalToolSet, type LocalToolSet } from '../test/helpers/local-tool-set.js';
import { createToolSet } from './tool-set.js';

let workspace: LocalToolSet | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

describe('run', () => {
  it('runs in the repository root and returns exit code, stdout, stderr and the sandbox log of the command', async () => {
    workspace = await createLocalToolSet({ 'src/calc.py': 'x = 1\n' });
    const result = await workspace.tools.execute({ tool: 'run', params: { command: 'ls src; echo problem >&2; exit 3' }, request_id: 'r1' }, { step: 12 });
    expect(result.status).toBe('success');
    // One log, the sandbox's, holds both streams: nothing is kept twice.
    expect(result).toMatchObject({ exit_code: 3, stdout_path: 'logs/tool_step_0012_run.log', stderr_path: 'logs/tool_step_0012_run.log' });
    expect(result.data).toMatchObject({ exit_code: 3, stdout: 'calc.py\n', stderr: 'problem\n', timed_out: false, stdout_truncated: false, stdout_lines: 1 });
    expect(result.data).toMatchObject({ log_path: 'logs/tool_step_0012_run.log', log_truncated: false });
    expect(await readFile(join(workspace.artifactsDir, 'logs/tool_step_0012_run.log'), 'utf8')).toMatch(
      /^\$ ls src; echo problem >&2; exit 3\n--- stdout ---\ncalc\.py\n\n--- stderr ---\nproblem\n\n--- exit 3 after \d+ ms ---\n$/,
    );
    expect(await readdir(join(workspace.artifactsDir, 'logs'))).toEqual(['tool_step_0012_run.log']);
  });

  it('writes no log of its own when the sandbox keeps none', async () => {
    const sandbox = await LocalSandbox.create({}, { isWarningSilenced: true });
    const artifactsDir = await mkdtemp(join(tmpdir(), 'agentbench-tools-no-log-'));
    try {
      const result = await createToolSet({ sandbox, artifactsDir }).execute({ tool: 'run', params: { command: 'seq 1 5000' }, request_id: 'r1' });
      expect(result).toMatchObject({ status: 'success', stdout_path: null, stderr_path: null });
      expect(result.data).toMatchObject({ log_path: null, log_truncated: false, stdout_truncated: true });
      expect(result.data?.['stdout']).toContain('the middle was left out');
      expect(await readdir(artifactsDir)).toEqual([]);
    } finally {
      await sandbox.dispose();
      await rm(artifactsDir, { recursive: true, force: true });
    }
  });

  it('says when the sandbox log itself was cut at its cap', async () => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('run', { command: `head -c ${11 * 1024 * 1024} /dev/zero | tr '\\0' x` });
    expect(result.data).toMatchObject({ log_truncated: true, stdout_truncated: true, stdout_bytes: 11 * 1024 * 1024 });
    const log = await readFile(join(workspace.artifactsDir, result.stdout_path as string), 'utf8');
    expect(log.length).toBeLessThan(10 * 1024 * 1024 + 500);
    expect(log.includes(`[… ${(1024 * 1024).toLocaleString('en-US')} of ${(11 * 1024 * 1024).toLocaleString('en-US')} bytes dropped by agentbench …]`)).toBe(true);
  });

  it('kills a command past its timeout and reports timeout with exit code 124, keeping its output', async () => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('run', { command: 'echo started; sleep 30', timeout_sec: 1 });
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ kind: 'timeout', details: { timeout_sec: 1, exit_code: 124 } });
    expect(result.exit_code).toBe(124);
    expect(result.data).toMatchObject({ timed_out: true, stdout: 'started\n' });
  });

  it('uses the context\'s default timeout when the call gives none', async () => {
    workspace = await createLocalToolSet({}, { defaultRunTimeoutSec: 1 });
    const result = await workspace.call('run', { command: 'sleep 30' });
    expect(result.error?.kind).toBe('timeout');
  });

  it('keeps the start and end of long output and the whole of it in the log (under the log cap)', async () => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('run', { command: 'seq 1 5000' });
    const stdout = result.data?.['stdout'] as string;
    expect(stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(stdout.endsWith('4999\n5000\n')).toBe(true);
    expect(stdout).not.toContain('\n2500\n');
    expect(stdout).toContain(`more in ${result.stdout_path}`);
    expect(result.data).toMatchObject({ stdout_truncated: true, stdout_lines: 5000, stdout_kept_head_lines: 200, log_truncated: false });
    const log = await readFile(join((workspace as LocalToolSet).artifactsDir, result.stdout_path as string), 'utf8');
    expect(log).toContain(`--- stdout ---\n${Array.from({ length: 5000 }, (_, index) => index + 1).join('\n')}\n\n--- stderr ---`);
  });

  it('returns everything when full output is asked for (AGENTBENCH_FULL_LOGS)', async () => {
    workspace = await createLocalToolSet({}, { isFullOutput: true });
    const result = await workspace.call('run', { command: 'seq 1 5000' });
    expect((result.data?.['stdout'] as string).split('\n')).toHaveLength(5001);
    expect(result.data?.['stdout_truncated']).toBe(false);
  });

  it('passes env variables, the call\'s over the context\'s', async () => {
    workspace = await createLocalToolSet({}, { runEnvironment: { LEVEL: 'context', KEPT: 'yes' } });
    const result = await workspace.call('run', { command: 'echo "$LEVEL/$KEPT/$NUMBER"', env: { LEVEL: 'call', NUMBER: 3 } });
    expect(result.data?.['stdout']).toBe('call/yes/3\n');
  });

  it.each([
    [{ command: '' }, 'command: expected a non-empty string'],
    [{}, 'command: missing (a required parameter)'],
    [{ command: 'true', env: { 'BAD-NAME': 'x' } }, 'expected variable names'],
    [{ command: 'true', timeout_sec: 0 }, 'timeout_sec: expected a whole number from 1 to 3600, found 0'],
    [{ command: 'true', timeout_sec: 'soon' }, 'timeout_sec: expected a whole number'],
  ])('rejects %j as invalid_arguments', async (params, expected) => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('run', params);
    expect(result.error?.kind).toBe('invalid_arguments');
    expect(result.error?.message).toContain(expected);
  });

  it('refuses network access unless the context allows it', async () => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('run', { command: 'true', network: true });
    expect(result.error?.kind).toBe('invalid_arguments');
    expect(result.error?.message).toContain('network: true is not allowed');
  });

  it('opens the network for that command only when allowed', async () => {
    workspace = await createLocalToolSet({}, { allowNetwork: true });
    const setNetwork = vi.spyOn(workspace.sandbox, 'setNetwork');
    const result = await workspace.call('run', { command: 'true', network: true });
    expect(result.status).toBe('success');
    expect(setNetwork.mock.calls).toEqual([[true], [false]]);
  });

  it('gives the log as a host path without an artifacts folder to be relative to', async () => {
    workspace = await createLocalToolSet({}, { artifactsDir: undefined });
    const result = await workspace.call('run', { command: 'echo hi' });
    expect(result).toMatchObject({ stdout_path: join(workspace.artifactsDir, 'logs', 'tool_step_0001_run.log'), exit_code: 0 });
    expect(result.data?.['stdout']).toBe('hi\n');
  });
});
