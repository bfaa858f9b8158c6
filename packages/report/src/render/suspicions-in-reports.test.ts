import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { writeSyntheticRunFolder } from '../../../../test-support/synthetic-run-folder.js';
import { generateComparison } from '../compare/generate-comparison.js';
import { generateReport } from './generate-report.js';

const REWRITE = { rule: 'test-framework-patch', scanner: 'test-framework-patch', file: 'src/toy_calc/__init__.py', line: 3, message: 'code outside the tests imports the test framework' };
const SHOWN = 'test-framework-patch at src/toy_calc/__init__.py:3: code outside the tests imports the test framework';

let directory: TemporaryDirectory;
let runA: string;
let runB: string;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  runA = await writeSyntheticRunFolder(path.join(directory.path, 'a'), 'run-a', [{ taskId: 'toy', passed: false, suspicions: [] }, { taskId: 'other', passed: true }]);
  // B passes toy with a suspicion on its diff: the case a reader must see.
  runB = await writeSyntheticRunFolder(path.join(directory.path, 'b'), 'run-b', [{ taskId: 'toy', passed: true, suspicions: [REWRITE] }, { taskId: 'other', passed: true }]);
});
afterEach(async () => {
  await directory.remove();
});

describe('suspicions in the reports', () => {
  it('the Markdown report lists a passing attempt’s suspicion with its rule, file and line', async () => {
    const { text } = await generateReport({ runDirs: [runB], format: 'md' });
    expect(text).toContain('### Suspicions (1 in 1 attempt; scanners flag, they do not prove)');
    expect(text).toContain(`| toy | synthetic-model | passed | ${SHOWN} |`);
    const clean = await generateReport({ runDirs: [runA], format: 'md' });
    expect(clean.text).not.toContain('Suspicions');
  });

  it('the HTML report has a suspicions section and the row’s detail names it', async () => {
    const { text } = await generateReport({ runDirs: [runB], format: 'html' });
    const section = text.slice(text.indexOf('<section id="suspicions"'), text.indexOf('</section>', text.indexOf('<section id="suspicions"')));
    expect(section).toContain('Suspicions (1 in 1 attempt)');
    expect(section).toContain('<td>toy</td><td>synthetic-model</td><td>passed</td><td>test-framework-patch at src/toy_calc/__init__.py:3: code outside the tests imports the test framework</td>');
    expect(text).toContain(`"suspicion: ${SHOWN}"`);
  });

  it('ab compare shows the suspicion beside the pair, in text, Markdown and JSON', async () => {
    const line = `toy #1 B (passed): ${SHOWN}`;
    expect((await generateComparison({ folderA: runA, folderB: runB, format: 'text' })).text).toContain(`suspicions (scanners flag, they do not prove):\n  ${line}`);
    expect((await generateComparison({ folderA: runA, folderB: runB, format: 'md' })).text).toContain(`- <code>${line}</code>`);
    const json = JSON.parse((await generateComparison({ folderA: runA, folderB: runB, format: 'json' })).text) as { pairs: Array<{ taskId: string; a: unknown; b: unknown }> };
    const toy = json.pairs.find((pair) => pair.taskId === 'toy');
    expect(toy).toMatchObject({ a: { suspicions: [] }, b: { suspicions: [REWRITE] } });
  });
});
