import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';
import { useDockerScratch } from './use-docker-scratch.js';

const skipReason = dockerSkipReason('compare.docker.test.ts');

// The task's own script up to its patch, then the tests without any fix: same first three calls.
const NO_FIX_SCRIPT = `- tool: list_files
  args: { root: ".", glob: "**/*.py" }
- tool: read_file
  args: { path: src/toy_calc/stats.py }
- tool: search
  args: { query: "def median", glob: "**/*.py" }
- tool: run
  args: { command: "PYTHONPATH=/workspace/site-packages python3 -m pytest -q", timeout_sec: 300 }
`;

describe.skipIf(skipReason !== undefined)('ab compare on two real agent runs in Docker', () => {
  const scratch = useDockerScratch();

  it('finds the regression and the first tool call where the scripted runs part', async () => {
    // The bundled task, with its repository URL made absolute and time limits a loaded two-core machine meets.
    const task = await copyToyTask({ taskId: 'toy_fail_pytest', folder: path.join(scratch.path, 'task'), timeoutSec: 300 });
    const scriptFile = path.join(scratch.path, 'no-fix.yaml');
    await writeFile(scriptFile, NO_FIX_SCRIPT);
    const before = path.join(scratch.path, 'before');
    const after = path.join(scratch.path, 'after');
    const fixed = await runCli(['run-agent', '--task', task, '--variant', 'scripted', '--skip-baseline', '--out', before, '--json']);
    scratch.runIds.push((JSON.parse(fixed.stdout) as { record: { run_id: string } }).record.run_id);
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
    const broken = await runCli(['run-agent', '--task', task, '--variant', 'scripted', '--script', scriptFile, '--skip-baseline', '--out', after, '--json']);
    scratch.runIds.push((JSON.parse(broken.stdout) as { record: { run_id: string } }).record.run_id);
    expect(broken.exitCode, broken.stdout + broken.stderr).toBe(1);

    const run = await runCli(['compare', before, after, '--format', 'json']);
    expect(run.exitCode).toBe(0);
    const comparison = JSON.parse(run.stdout) as {
      counts: { pairs: number; regressions: number; fixes: number };
      divergences: Array<{ taskId: string; index: number; a: { tool: string }; b: { tool: string; arguments: string } }>;
    };
    expect(comparison.counts).toMatchObject({ pairs: 1, regressions: 1, fixes: 0 });
    expect(comparison.divergences[0]).toMatchObject({ taskId: 'toy_fail_pytest', index: 3, a: { tool: 'apply_patch' }, b: { tool: 'run' } });
    expect(comparison.divergences[0]?.b.arguments).toContain('python3 -m pytest -q');
    // One regression is not significant (p = 1): CI does not fail on it.
    expect((await runCli(['compare', before, after, '--fail-on-regression'])).exitCode).toBe(0);
  }, 600_000);
});
