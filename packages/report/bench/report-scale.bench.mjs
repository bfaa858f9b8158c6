#!/usr/bin/env node
// Benchmark of `ab report` at scale: a synthetic run folder of 10,000 attempt records beside a
// baseline of 100, both measured in this run. For each: the wall time of `ab report` (the built
// CLI, a process of its own), the HTML's size (and bytes per record), and in headless Chromium
// (Debian's /usr/bin/chromium driven by playwright-core) the page's first paint and first
// contentful paint, and the time of three interactions: a text filter, a sort, the next page.
// Targets (issue 15): build < 5 s and HTML < 15 MB at 10,000 records. It reports and exits 0
// whatever the timings (they vary by machine), 1 on an exception. --quick: 10 and 100 records.
//
//   node packages/report/bench/report-scale.bench.mjs [--quick]
//
// Uses the built CLI (apps/cli/dist/bin.js): run `pnpm --filter @agentbench/report build` and
// `pnpm --filter @agentbench/cli build` first (`pnpm bench` runs against built packages).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeSyntheticRun } from './write-synthetic-run.mjs';
import { recordFigure, sized, skipBench } from '../../../scripts/bench-figures.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, '../../..');
const cli = path.join(repositoryRoot, 'apps/cli/dist/bin.js');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const targets = { buildMs: 5_000, htmlBytes: 15 * 1024 * 1024 };
const SIZES = sized([100, 10_000], [10, 100]);

function row(cells, widths) {
  return cells.map((cell, index) => String(cell).padEnd(widths[index])).join('  ').trimEnd();
}
const formatMs = (value) => (value === undefined ? 'n/a' : `${value.toFixed(0)} ms`);
const formatMb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** Seconds of `XmY.YYYs`, as the shell's `times` prints them. */
function shellSeconds(text) {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match === null ? Number.NaN : Number(match[1]) * 60 + Number(match[2]);
}

/**
 * Runs `ab report` in a child process; wall time, and its CPU time (user + system, read with the
 * shell's `times`) which a busy machine inflates far less than the wall time.
 */
function buildReport(dir, outFile) {
  const started = performance.now();
  const result = spawnSync('/bin/sh', ['-c', '"$0" "$@" >/dev/null || exit $?; times', process.execPath, cli, 'report', dir, '--out', outFile], { encoding: 'utf8' });
  const buildMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`ab report failed (exit ${result.status}): ${result.stderr.trim()}`);
  const childTimes = result.stdout.trim().split('\n').at(-1)?.split(/\s+/) ?? [];
  const cpuMs = (shellSeconds(childTimes[0] ?? '') + shellSeconds(childTimes[1] ?? '')) * 1000;
  return { buildMs, cpuMs, htmlBytes: statSync(outFile).size };
}

/** Runs `action` in the page and waits two frames, so the time covers the re-render and its layout. */
async function timeInteraction(page, action) {
  return page.evaluate(async (source) => {
    const started = performance.now();
    new Function(source)();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - started;
  }, action);
}

async function measurePage(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  try {
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="attempt-row"]');
    const paints = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((entry) => [entry.name, entry.startTime])));
    const domRows = await page.locator('[data-testid="attempt-row"]').count();
    const filterMs = await timeInteraction(page, "var input = document.getElementById('filter-text'); input.value = 'task_0042'; input.dispatchEvent(new Event('input'));");
    await timeInteraction(page, "var input = document.getElementById('filter-text'); input.value = ''; input.dispatchEvent(new Event('input'));");
    const sortMs = await timeInteraction(page, "document.querySelector('th[data-sort=\"durationSec\"]').click();");
    const hasNextPage = await page.evaluate(() => !document.getElementById('page-next').disabled);
    const nextPageMs = hasNextPage ? await timeInteraction(page, "document.getElementById('page-next').click();") : undefined;
    return { firstPaintMs: paints['first-paint'], firstContentfulPaintMs: paints['first-contentful-paint'], domRows, filterMs, sortMs, nextPageMs };
  } finally {
    await page.close();
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'ab-report-scale-'));
try {
  if (!existsSync(cli)) {
    skipBench('report-scale', `${cli} not built (pnpm --filter @agentbench/cli build)`, 'AGENTBENCH_REQUIRE_TOOLS');
  } else {
    const results = [];
    for (const count of SIZES) {
      const dir = await writeSyntheticRun(path.join(scratch, `run-${count}`), count);
      const outFile = path.join(scratch, `report-${count}.html`);
      results.push({ count, outFile, ...buildReport(dir, outFile) });
    }
    let browser;
    if (existsSync(CHROMIUM)) {
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      try {
        for (const result of results) Object.assign(result, await measurePage(browser, result.outFile));
      } finally {
        await browser.close();
      }
    } else {
      if (process.env.AGENTBENCH_REQUIRE_TOOLS === '1') throw new Error(`AGENTBENCH_REQUIRE_TOOLS=1 but ${CHROMIUM} is not installed`);
      console.log(`note: ${CHROMIUM} not installed (scripts/setup.sh --with-test-tools): page timings skipped`);
    }
    const widths = [26, 16, 16];
    console.log(`load average ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${availableParallelism()} cores (wall times grow with it)`);
    const [baseline, large] = results;
    console.log(row(['', `${baseline.count} records`, `${large.count} records`, 'target'], [...widths, 12]));
    const line = (label, pick, target) => console.log(row([label, pick(baseline), pick(large), target ?? ''], [...widths, 12]));
    line('ab report (wall)', (result) => formatMs(result.buildMs), `< ${targets.buildMs / 1000} s`);
    line('ab report (CPU user+sys)', (result) => formatMs(result.cpuMs));
    line('HTML size', (result) => formatMb(result.htmlBytes), `< ${formatMb(targets.htmlBytes)}`);
    line('HTML bytes per record', (result) => String(Math.round(result.htmlBytes / result.count)));
    line('rows in the DOM', (result) => String(result.domRows ?? 'n/a'));
    line('first paint', (result) => formatMs(result.firstPaintMs));
    line('first contentful paint', (result) => formatMs(result.firstContentfulPaintMs));
    line('filter (text)', (result) => formatMs(result.filterMs));
    line('sort (duration)', (result) => formatMs(result.sortMs));
    line('next page', (result) => formatMs(result.nextPageMs));
    const figure = (name, key, unit, scale, target) =>
      recordFigure('report-scale', { name: `${name}, ${large.count} records`, value: large[key] / scale, unit, baseline: { name: `${baseline.count} records`, value: baseline[key] / scale }, ...(target === undefined ? {} : { target }) });
    figure('ab report wall time', 'buildMs', 'ms', 1, `< ${targets.buildMs} ms`);
    figure('ab report CPU time', 'cpuMs', 'ms', 1);
    figure('HTML size', 'htmlBytes', 'MB', 1024 * 1024, `< ${targets.htmlBytes / 1024 / 1024} MB`);
    figure('first contentful paint', 'firstContentfulPaintMs', 'ms', 1);
    const verdict = (isMet) => (isMet ? 'PASS' : 'FAIL');
    console.log(`build ${verdict(large.buildMs < targets.buildMs)} · size ${verdict(large.htmlBytes < targets.htmlBytes)} (at ${large.count} records)`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
