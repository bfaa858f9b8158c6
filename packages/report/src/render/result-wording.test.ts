import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAgentRun, writeSuiteRun } from '../../test/helpers/write-artifacts.js';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { renderHtmlReport } from './render-html.js';
import { renderMarkdownReport } from './render-markdown.js';
import { resultWording } from './result-wording.js';

let root: string;
let baselineRun: ReportModel;
let mixed: ReportModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-report-wording-'));
  const suite = await writeSuiteRun(path.join(root, 'suite'));
  await writeAgentRun(path.join(root, 'agents'), { taskId: 'toy_fail', passed: true, folder: 'run-a' });
  baselineRun = await readRunFolders([suite]);
  mixed = await readRunFolders([suite, path.join(root, 'agents')]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the wording of a baseline validation run', () => {
  it('counts valid baselines, not passes, in Markdown', () => {
    expect(resultWording(baselineRun).isBaseline).toBe(true);
    const markdown = renderMarkdownReport(baselineRun);
    expect(markdown).toContain('**valid baselines: 1 of 2**');
    expect(markdown).not.toContain('passed**');
  });

  it('says valid and invalid baseline in the HTML card, note, chart and result filter', () => {
    const html = renderHtmlReport(baselineRun, { baseDir: root });
    expect(html).toContain('valid baselines: 1 of 2');
    expect(html).toContain('Baseline validation of every task');
    expect(html).toContain('aria-label="Valid baselines per model"');
    expect(html).not.toContain('Pass rate per model');
    expect(html).toContain('<option value="passed">valid baseline</option><option value="failed">invalid baseline</option>');
    expect(html).toContain('"isBaseline":true');
  });

  it('keeps passed and failed when a report mixes a baseline run with agent runs, marking the baseline folder for the table', () => {
    expect(resultWording(mixed).isBaseline).toBe(false);
    expect(renderMarkdownReport(mixed)).toContain('**2/3 passed**');
    const html = renderHtmlReport(mixed, { baseDir: root });
    expect(html).toContain('Pass rate per model');
    expect(html).toContain('"id":"source-1","label":"2025-03-01_10-00-00__custom-dev__baseline","isBaseline":true');
    expect(html).toContain('"isBaseline":false');
  });
});
