import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { writeSyntheticRunFolder, type SyntheticAttempt } from '../../../../test-support/synthetic-run-folder.js';
import { generateReport } from './generate-report.js';

const READ = { tool: 'read_file', params: { path: 'src/x.py' } };
const FIX = { tool: 'apply_patch', params: { unified_diff: '--- a/x.py\n+++ b/x.py\n' } };
const SEARCH = { tool: 'search', params: { query: 'def median' } };

function task(taskId: string, passed: boolean, tools: SyntheticAttempt['tools']): SyntheticAttempt {
  return { taskId, passed, tools };
}

let directory: TemporaryDirectory;
let runA: string;
let runB: string;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [task('t1', true, [READ, FIX]), task('t2', false, [READ, SEARCH])]);
  runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [task('t1', false, [READ, SEARCH]), task('t2', false, [READ, SEARCH])]);
});
afterEach(async () => {
  await directory.remove();
});

describe('ab report with two run folders', () => {
  it('puts B against A in the HTML report: the regression with both trajectories side by side, the divergent call marked', async () => {
    const { text } = await generateReport({ runDirs: [runA, runB], format: 'html' });
    const section = text.slice(text.indexOf('<section id="b-vs-a"'), text.indexOf('</section>', text.indexOf('<section id="b-vs-a"')));
    expect(section).toContain('regression (pass → fail)');
    expect(section).toContain('<code>t1</code>');
    expect(section).toContain('first divergence at tool call 2');
    // The marked row: A's apply_patch beside B's search.
    const marked = section.slice(section.indexOf('data-testid="divergence-row"'));
    expect(marked.slice(0, marked.indexOf('</tr>'))).toMatch(/apply_patch[\s\S]*search/);
    // The report's own sections are all still there.
    expect(text).toContain('id="attempts-table"');
    expect(text).toContain('.trajectories');
  });

  it('adds the same comparison to the Markdown report, and none to JSON or with one folder', async () => {
    const markdown = (await generateReport({ runDirs: [runA, runB], format: 'md' })).text;
    expect(markdown).toContain('## AgentBench: B vs A');
    expect(markdown).toContain('t1');
    expect((await generateReport({ runDirs: [runA, runB], format: 'json' })).text).not.toContain('B vs A');
    expect((await generateReport({ runDirs: [runA], format: 'html' })).text).not.toContain('id="b-vs-a"');
  });

  it('still reports two runs of different tasks, saying why they are not compared', async () => {
    const other = await writeSyntheticRunFolder(path.join(directory.path, 'c'), 'run-c', [task('t9', true, [READ, FIX])]);
    const { text, model } = await generateReport({ runDirs: [runA, other], format: 'html' });
    expect(model.rows).toHaveLength(3);
    expect(text).toMatch(/Not compared: .*no task in common/);
  });
});
