import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRun } from '../bench/write-synthetic-run.mjs';
import { writeSuiteRun } from './helpers/write-artifacts.js';
import { skipUnlessRequired } from '../../../test-support/skip-unless-required.js';
import { readRunFolders, renderHtmlReport } from '../src/index.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const skip = skipUnlessRequired('html-pagination.test.ts', existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not installed (scripts/setup.sh --with-test-tools)`, 'AGENTBENCH_REQUIRE_TOOLS');

describe.skipIf(skip !== undefined)('the paginated attempts table, in headless Chromium', () => {
  let scratch: string;
  let reportFile: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-report-pages-'));
    // 1,000 records: record 13 carries a hostile model name (see write-synthetic-run.mjs).
    const dir = await writeSyntheticRun(path.join(scratch, 'run'), 1000);
    reportFile = path.join(scratch, 'report.html');
    await writeFile(reportFile, renderHtmlReport(await readRunFolders([dir]), { baseDir: scratch }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('shows one page of rows, pages forward, and filters and sorts over every row', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(reportFile).href);
    const rows = page.getByTestId('attempt-row');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(100);
    expect(await page.locator('#attempts-count').textContent()).toBe('Showing 1–100 of 1000');
    expect(await page.getByTestId('page-label').textContent()).toBe('Page 1 of 10');
    expect(await page.getByTestId('page-previous').isDisabled()).toBe(true);

    const firstTask = await rows.first().locator('td').first().textContent();
    await page.getByTestId('page-next').click();
    expect(await page.getByTestId('page-label').textContent()).toBe('Page 2 of 10');
    expect(await page.locator('#attempts-count').textContent()).toBe('Showing 101–200 of 1000');
    expect(await rows.first().locator('td').first().textContent()).not.toBe(firstTask);

    // A filter searches every row, not just the page, and starts again from page 1.
    await page.locator('#filter-text').fill('task_0042');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await page.getByTestId('page-label').textContent()).toBe('Page 1 of 1');
    expect(await page.locator('#attempts-count').textContent()).toBe('Showing 2 of 1000');
    await page.locator('#filter-text').fill('');

    // Sorting orders every row: the longest attempt of all 1,000 comes first when sorted descending.
    await page.locator('th[data-sort="durationSec"]').click();
    await page.locator('th[data-sort="durationSec"]').click();
    const blob = (await page.locator('#report-data').textContent()) ?? '';
    const longest = Math.max(...(JSON.parse(blob) as { rows: Array<{ durationSec: number }> }).rows.map((row) => row.durationSec));
    const shown = await rows.first().locator('td.number').first().textContent();
    expect(shown).toBe(longest < 60 ? `${longest.toFixed(longest < 10 ? 1 : 0)} s` : `${Math.floor(longest / 60)} min ${Math.round(longest - Math.floor(longest / 60) * 60)} s`);

    await page.getByTestId('page-size').selectOption('250');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(250);

    // Every chart value label is drawn whole inside its chart (at 1400 px, as in issue 15).
    const cutLabels = await page.evaluate(`[...document.querySelectorAll('svg.chart')].flatMap((svg) => [...svg.querySelectorAll('.chart-value')].filter((text) => { const box = text.getBBox(); return box.x + box.width > svg.viewBox.baseVal.width; }).map((text) => text.textContent))`);
    expect(cutLabels).toEqual([]);
    expect(await page.locator('svg.chart .chart-value').count()).toBeGreaterThan(3);

    // The hostile model name is an option's text, and no script of it ran.
    expect(await page.locator('#filter-model option', { hasText: '</script>' }).count()).toBe(1);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('names the results of a baseline validation run valid and invalid baselines', async () => {
    const baselineFile = path.join(scratch, 'baseline.html');
    await writeFile(baselineFile, renderHtmlReport(await readRunFolders([await writeSuiteRun(path.join(scratch, 'suite'))]), { baseDir: scratch }));
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(pathToFileURL(baselineFile).href);
    const statuses = page.locator('[data-testid="attempt-row"] td.status');
    await expect.poll(() => statuses.allTextContents(), { timeout: 30_000 }).toEqual(['valid baseline', 'invalid baseline']);
    expect(await page.getByTestId('baseline-note').textContent()).toContain('valid baselines: 1 of 2');
    await page.close();
  });
});
