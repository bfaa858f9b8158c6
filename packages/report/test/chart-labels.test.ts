import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRunFolder } from '../../../test-support/synthetic-run-folder.js';
import { readRunFolders, renderHtmlReport } from '../src/index.js';
import { chromiumSkipReason, launchChromium } from './helpers/headless-chromium.js';

const skip = chromiumSkipReason('chart-labels.test.ts');

// Issue 27, item 3: the run-folder chart's labels (folder names as `ab run` makes them) were cut off on the left.
describe.skipIf(skip !== undefined)('chart labels, in headless Chromium', () => {
  let scratch: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-chart-labels-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('draws every label of every chart whole, inside the chart', async () => {
    const folders = [
      await writeSyntheticRunFolder(path.join(scratch, '2026-11-27_14-00-00__custom-dev__scripted'), 'run-a', [{ taskId: 'toy_fail_pytest', passed: true }]),
      await writeSyntheticRunFolder(path.join(scratch, '2026-11-27_14-05-00__custom-dev__openrouter-meta-llama-3.1-70b-instruct'), 'run-b', [
        { taskId: 'toy_fail_pytest', passed: false, failureReason: 'AGENT_MAX_STEPS_EXCEEDED', model: 'openrouter/meta-llama/llama-3.1-70b-instruct-with-a-long-suffix' },
      ]),
    ];
    const file = path.join(scratch, 'report.html');
    await writeFile(file, renderHtmlReport(await readRunFolders(folders), { baseDir: scratch }));
    const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(pathToFileURL(file).href);
    // Runs in the page (the test's tsconfig has no DOM types): every chart label's own text (not its
    // <title>, the whole name shown on hover), its drawn box and its chart's viewBox width.
    const labels = (await page.evaluate(`[...document.querySelectorAll('svg.chart')].flatMap((svg) =>
      [...svg.querySelectorAll('text.chart-label')].map((label) => {
        const box = label.getBBox();
        const text = [...label.childNodes].filter((node) => node.nodeType === 3).map((node) => node.textContent).join('');
        return { text, left: box.x, right: box.x + box.width, viewWidth: svg.viewBox.baseVal.width };
      }))`)) as Array<{ text: string; left: number; right: number; viewWidth: number }>;
    expect(labels.map((label) => label.text)).toContain('2026-11-27_14-00-00__custom-dev__scripted');
    expect(labels.length).toBeGreaterThanOrEqual(5);
    for (const label of labels) {
      expect(label.left, label.text).toBeGreaterThanOrEqual(0);
      expect(label.right, label.text).toBeLessThanOrEqual(label.viewWidth);
    }
    await page.close();
  });
});
