import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SuiteValidity, TaskValidity } from '@agentbench/schemas';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { writeSuiteRun } from '../../test/helpers/write-artifacts.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { renderHtmlReport } from './render-html.js';

function taskValidity(taskId: string, overrides: Partial<TaskValidity>): TaskValidity {
  return {
    task_id: taskId,
    verdict: 'valid',
    runs: 2,
    has_oracle: true,
    oracle_passes: 2,
    oracle_runs: 2,
    baseline_failures: 2,
    baseline_runs: 2,
    errored_runs: 0,
    reasons: [],
    run_folders: [`validity/${taskId}/baseline-1`],
    message: 'baseline failed and the reference patch passed in every run',
    ...overrides,
  };
}

const directory = useTemporaryDirectory();

describe('the task-validity section', () => {
  it('shows "K of M tasks valid" with flagged tasks first, and the validity runs are not attempt rows', async () => {
    const runDir = await writeSuiteRun(directory.path);
    const validity: SuiteValidity = {
      run_id: 'suite-run-1',
      oracle_runs: 2,
      written_at: '2025-03-01T10:02:00.000Z',
      valid: 1,
      total: 2,
      tasks: [taskValidity('toy_fail', {}), taskValidity('toy_pass', { verdict: 'oracle_flaky', oracle_passes: 1, message: 'the reference patch passed in some runs only' })],
    };
    await writeFile(path.join(runDir, 'validity.json'), JSON.stringify(validity));
    // A validity run's record must not become a row of the suite report.
    await mkdir(path.join(runDir, 'validity', 'toy_fail'), { recursive: true });
    await writeFile(path.join(runDir, 'validity', 'toy_fail', 'attempts.jsonl'), '{"not":"read"}\n');
    const model = await readRunFolders([runDir]);
    expect(model.rows).toHaveLength(2);
    expect(model.sources[0]?.validity?.valid).toBe(1);
    const html = renderHtmlReport(model, { baseDir: directory.path });
    expect(html).toContain('1 of 2 tasks valid');
    const verdicts = [...html.matchAll(/data-testid="validity-row" data-verdict="([a-z_]+)"/g)].map((match) => match[1]);
    expect(verdicts).toEqual(['oracle_flaky', 'valid']);
    expect(html).toContain('<td>1/2</td><td>2/2</td><td>the reference patch passed in some runs only</td>');
  });

  it('is absent without validity.json, and a malformed one is a listed problem', async () => {
    const runDir = await writeSuiteRun(directory.path);
    expect(renderHtmlReport(await readRunFolders([runDir]))).not.toContain('id="validity"');
    await writeFile(path.join(runDir, 'validity.json'), JSON.stringify({ run_id: 'x' }));
    const model = await readRunFolders([runDir]);
    expect(model.problems.some((problem) => problem.file.endsWith('validity.json') && problem.message.startsWith('not a valid validity record'))).toBe(true);
  });
});
