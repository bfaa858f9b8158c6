import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';
import { copyToyTask } from './toy-tasks.js';

// Issue 27 item 1: attempts that never ran vanished from the pass rate. No Docker: none of these attempts gets as far as a sandbox.
let scratch: TemporaryDirectory;
beforeAll(async () => {
  scratch = await createTemporaryDirectory();
  // Two toy tasks without a script (as three of custom-dev's five are), and two with one.
  for (const taskId of ['toy_pass_pytest', 'toy_setup_fail']) await copyToyTask({ taskId, folder: path.join(scratch.path, 'tasks/unscripted', taskId), suite: 'unscripted' });
  for (const taskId of ['toy_fail_pytest', 'toy_one_liner']) await copyToyTask({ taskId, folder: path.join(scratch.path, 'tasks/scripted', taskId), suite: 'scripted' });
  // An agent that fails to load only when an attempt builds it.
  await writeFile(path.join(scratch.path, 'broken-agent.mjs'), "export default function createAgent() { throw new Error('cannot reach the planner'); }\n");
});
afterAll(async () => {
  await scratch.remove();
});

describe('ab run: attempts that cannot start are refused, or counted as errored', () => {
  it('refuses a plan whose scripted agent has no script for its tasks, one line per task with the fix, exit 1, no run folder', async () => {
    const out = path.join(scratch.path, 'runs/refused');
    const run = await runCli(['run', '--suite', 'unscripted', '--out', out], { cwd: scratch.path });
    expect(run.exitCode).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('ab: 2 of 2 tasks cannot start with the scripted agent; nothing was run:');
    expect(lines[1]).toMatch(/^ {2}toy_pass_pytest: no script: the scripted agent needs a script: .*toy_pass_pytest\/task\.yaml has neither agent\.script nor agent\.script_file$/);
    expect(lines[2]).toMatch(/^ {2}toy_setup_fail: no script: /);
    expect(lines[3]).toMatch(/^to fix: add agent\.script to the task, or run it with another agent/);
    expect(lines).toHaveLength(4);
    expect(existsSync(out)).toBe(false);
  });

  it('records attempts whose agent fails to load as errored with the reason: the table, progress, ab report and a resume count them', async () => {
    const out = path.join(scratch.path, 'runs/broken');
    const run = await runCli(['run', '--suite', 'scripted', '--agent', './broken-agent.mjs', '--out', out], { cwd: scratch.path });
    expect(run.stderr).toMatch(/could not start, errored: agent "\.\/broken-agent\.mjs": its factory threw: cannot reach the planner · 2\/2 done · .* · 2 errored/);
    expect(run.stdout).toMatch(/^model\s+attempts\s+errored\s+pass rate/);
    expect(run.stdout).toMatch(/^\.\/broken-agent\.mjs\s+2\s+2\s+–/m);
    expect(run.stdout).toContain('./broken-agent.mjs: 0/2 ran; 0/0 passed; 2 errored: agent failed to load');
    expect(run.stderr).not.toContain('run stopped before every attempt finished');
    expect(run.exitCode).toBe(1);

    const markdown = await runCli(['report', out, '--format', 'md'], { cwd: scratch.path });
    expect(markdown.stdout).toContain('**0/2 ran; 0/0 passed; 2 errored: agent failed to load');
    const json = await runCli(['report', out, '--format', 'json'], { cwd: scratch.path });
    const document = JSON.parse(json.stdout) as { summary: { overall: { counts: Record<string, unknown> } }; rows: Array<Record<string, unknown>> };
    expect(document.summary.overall.counts).toMatchObject({ attempts: 2, ran: 0, counted: 0, passed: 0, errored_by_reason: { 'agent failed to load': 2 } });
    expect(document.rows.map((row) => row['not_started'])).toEqual(['agent failed to load', 'agent failed to load']);
    const html = await runCli(['report', out], { cwd: scratch.path });
    expect(html.exitCode).toBe(0);
    expect(await readFile(path.join(out, 'report.html'), 'utf8')).toContain('data-testid="attempt-counts">0/2 ran; 0/0 passed; 2 errored: agent failed to load');

    // Nothing is left to continue: the resume runs no attempt again and does not offer another resume.
    const attemptsBefore = await readFile(path.join(out, 'attempts.jsonl'), 'utf8');
    const resumed = await runCli(['run', '--resume', out], { cwd: scratch.path });
    expect(resumed.stderr).toMatch(/resuming .*: 2\/2 done · .* 2 errored/);
    expect(resumed.stderr).not.toMatch(/could not start|run stopped before every attempt finished/);
    expect(await readFile(path.join(out, 'attempts.jsonl'), 'utf8')).toBe(attemptsBefore);
  });
});
