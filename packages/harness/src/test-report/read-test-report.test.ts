import type { ExecResult } from '@agentbench/sandbox';
import type { Task } from '@agentbench/schemas';
import { describe, expect, it } from 'vitest';
import { removeTestReport } from './read-test-report.js';
import { testReportSourceFor } from './test-report-source.js';

// Only the fields testReportSourceFor reads.
function taskWith(command: string, evaluation?: Task['evaluation']): Task {
  return { run: { command }, validation: { expected_failing_tests: ['tests/test_a.py::test_b'] }, ...(evaluation === undefined ? {} : { evaluation }) } as unknown as Task;
}

async function commandsOfRemoving(task: Task): Promise<string[][]> {
  const source = testReportSourceFor(task, '/workspace', 'repo', 'a1b2c3');
  if (source === undefined) throw new Error('the task has no report source');
  const commands: string[][] = [];
  await removeTestReport(async (argv) => {
    commands.push(argv);
    return { exitCode: 0, stdout: '', stderr: '' } as ExecResult;
  }, source);
  return commands;
}

describe('removeTestReport', () => {
  it('removes a report at a path the task names (the repository may hold a stale one)', async () => {
    expect(await commandsOfRemoving(taskWith('./run-tests.sh', { allow_test_changes: false, results: { format: 'junit', path: 'reports/junit.xml' } }))).toEqual([['rm', '-f', '--', '/workspace/repo/reports/junit.xml']]);
  });

  it("runs no command for pytest's report, whose name is a fresh nonce", async () => {
    expect(await commandsOfRemoving(taskWith('python -m pytest -q'))).toEqual([]);
  });
});
