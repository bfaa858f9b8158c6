#!/usr/bin/env node
// Benchmark of the suspicion scan (issue 23): the built-in rules over a 5,000-line agent diff, as
// the harness scans every agent attempt, against a baseline measured in the same run, interleaved:
// splitting the same diff into lines and counting its added ones (the least any reader does). The
// target is under 50 ms per scan. Reports, always exits 0.
//
//   node packages/evaluators/bench/scanners.bench.mjs [--runs 40]
//
// Imports the built package (../dist/index.js).
import { recordFigure } from '../../../scripts/bench-figures.mjs';
import { scanChanges } from '../dist/index.js';

const targetMs = 50;
const diffLines = 5000;
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? 40 : Number(process.argv[runsFlag + 1]);
const warmups = 5;

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * A diff of about `total` lines as git writes it: Python modules changed in hunks of context,
 * removed and added lines (some in functions, some at module level, a few pytest imports and
 * exits among them), a pyproject.toml with a pytest section, a new .pth file.
 */
function syntheticDiff(total) {
  const lines = [];
  let module = 0;
  while (lines.length < total) {
    const file = `src/package/module_${module}.py`;
    lines.push(`diff --git a/${file} b/${file}`, 'index 1111111..2222222 100644', `--- a/${file}`, `+++ b/${file}`);
    for (let hunk = 0; hunk < 4; hunk += 1) {
      const body = [
        ` def function_${module}_${hunk}(value):`,
        `     """Doc ${hunk}."""`,
        '-    return value',
        `+    result = value + ${hunk}`,
        '+    if result < 0:',
        "+        raise ValueError('negative')",
        '+    return result',
        hunk === 2 && module % 10 === 0 ? '+import pytest' : '+CONSTANT = 1',
        hunk === 3 && module % 10 === 0 ? '+sys.exit(0)' : '+',
        ' ',
      ];
      const oldCount = body.filter((line) => !line.startsWith('+')).length;
      const newCount = body.filter((line) => !line.startsWith('-')).length;
      const start = hunk * 40 + 1;
      lines.push(`@@ -${start},${oldCount} +${start},${newCount} @@`, ...body);
    }
    module += 1;
  }
  lines.push('diff --git a/pyproject.toml b/pyproject.toml', '--- a/pyproject.toml', '+++ b/pyproject.toml', '@@ -10,2 +10,3 @@', ' [tool.pytest.ini_options]', ' testpaths = ["tests"]', '+addopts = "-k \'not median\'"');
  lines.push('diff --git a/zz.pth b/zz.pth', 'new file mode 100644', '--- /dev/null', '+++ b/zz.pth', '@@ -0,0 +1 @@', '+import hook');
  return `${lines.join('\n')}\n`;
}

function baseline(patch) {
  let added = 0;
  for (const line of patch.split('\n')) if (line.startsWith('+')) added += 1;
  return added;
}

const patch = syntheticDiff(diffLines);
const lineCount = patch.split('\n').length - 1;
const scanTimes = [];
const baselineTimes = [];
let suspicions = 0;
for (let run = 0; run < warmups + runs; run += 1) {
  const baselineStarted = performance.now();
  baseline(patch);
  const baselineMs = performance.now() - baselineStarted;
  const scanStarted = performance.now();
  suspicions = (await scanChanges({ patch })).length;
  const scanMs = performance.now() - scanStarted;
  if (run < warmups) continue;
  baselineTimes.push(baselineMs);
  scanTimes.push(scanMs);
}
const scanMedian = median(scanTimes);
const baselineMedian = median(baselineTimes);
console.log(`suspicion scan, built-in rules: a ${lineCount}-line diff (${(patch.length / 1024).toFixed(0)} KiB, ${suspicions} suspicions), ${runs} runs after ${warmups} warm-ups`);
console.log(`  baseline (split the diff into lines, count the added ones): median ${baselineMedian.toFixed(2)} ms`);
console.log(`  scanChanges (parse the diff, run the four rules):             median ${scanMedian.toFixed(2)} ms (${(scanMedian / Math.max(baselineMedian, 0.001)).toFixed(1)}× the baseline)`);
recordFigure('scanners', { name: `scan of a ${lineCount}-line diff, median`, value: scanMedian, unit: 'ms', baseline: { name: 'split the diff into lines', value: baselineMedian }, target: `< ${targetMs} ms` });
console.log(`  target: under ${targetMs} ms per scan: ${scanMedian < targetMs ? 'met' : 'NOT met'}`);
