#!/usr/bin/env node
// Benchmark of the verdict's test report (issue 23), each figure beside a baseline of the same run:
// - parsing a 10,000-test JUnit file (pytest's layout, one test in ten failing with its text),
//   beside reading the same tests from pytest's terminal summary as the baseline parser does
//   (target: under 100 ms);
// - what reading the report adds to an agent attempt: removing the file before the run, `cat` of a
//   10,000-test report inside a real Docker sandbox and parsing it, beside the wall time of a
//   scripted attempt on toy_fail_pytest (target: under 1 %).
// Prints PASS/FAIL against the targets and always exits 0 (timings vary by machine).
//
//   node packages/harness/bench/test-report.bench.mjs
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listManagedContainers, removeManagedContainers } from '@agentbench/sandbox';
import { loadTask } from '@agentbench/schemas';
import { recordFigure } from '../../../scripts/bench-figures.mjs';
import { parseJunitReport, runAgentAttempt, sandboxFactoryFor } from '../dist/index.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TESTS = 10_000;
const targets = { parseMs: 100, readShare: 0.01 };

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function junitXml(count) {
  const cases = [];
  for (let index = 0; index < count; index += 1) {
    const name = `test_case_${index}[${index % 7}-a b]`;
    const failure = index % 10 === 0 ? `<failure message="assert ${index} == 0">&gt;   assert value == 0\nE   assert ${index} == 0\n\ntests/test_m${index % 50}.py:${index}: AssertionError</failure>` : '';
    cases.push(`<testcase classname="tests.test_m${index % 50}" name="${name}" time="0.001">${failure}</testcase>`);
  }
  return `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${count}">${cases.join('')}</testsuite></testsuites>`;
}

function terminalSummary(count) {
  const lines = [];
  for (let index = 0; index < count; index += 1) lines.push(`${index % 10 === 0 ? 'FAILED' : 'PASSED'} tests/test_m${index % 50}.py::test_case_${index}[${index % 7}-a b] - assert ${index} == 0`);
  return `${lines.join('\n')}\n`;
}

// The baseline: what the harness did before, a line scan of pytest's -rA summary.
function scanTerminal(output) {
  const failing = [];
  for (const line of output.split('\n')) if (line.startsWith('FAILED ')) failing.push(line.slice(7, line.indexOf(' - ')));
  return failing;
}

async function time(action, runs = 5) {
  const samples = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await action();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const xml = junitXml(TESTS);
const terminal = terminalSummary(TESTS);
const parsed = await parseJunitReport(xml);
if (!(parsed.outcomes instanceof Map) || parsed.outcomes.size !== TESTS) throw new Error(`the report did not parse to ${TESTS} tests`);
const parseMs = await time(() => parseJunitReport(xml));
const scanMs = await time(() => scanTerminal(terminal));
recordFigure('test-report', { name: `JUnit parse of ${TESTS} tests`, value: parseMs, unit: 'ms', baseline: { name: 'terminal scan', value: scanMs }, target: `< ${targets.parseMs} ms` });
console.log(`JUnit parse of ${TESTS} tests (${(xml.length / 1e6).toFixed(1)} MB): ${parseMs.toFixed(1)} ms (baseline, terminal scan: ${scanMs.toFixed(1)} ms) — target < ${targets.parseMs} ms: ${parseMs < targets.parseMs ? 'PASS' : 'FAIL'}`);

const scratch = mkdtempSync(path.join(tmpdir(), 'ab-bench-test-report-'));
const runId = `bench-test-report-${process.pid}`;
try {
  const task = await loadTask(path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'));
  const started = performance.now();
  const { record } = await runAgentAttempt({ task, variant: 'scripted', skipBaseline: true, mirrors: [], outDir: path.join(scratch, 'attempt') });
  const attemptMs = performance.now() - started;
  mkdirSync(path.join(scratch, 'workspace'));
  const sandbox = await sandboxFactoryFor('docker')({ image: task.task.environment.docker_image, workdir: '/workspace', mountWorkspace: path.join(scratch, 'workspace'), labels: { runId, taskId: 'bench' } });
  try {
    const file = '/workspace/.agentbench/test-report-bench.xml';
    await sandbox.writeFile('.agentbench/test-report-bench.xml', xml);
    const readMs = await time(async () => {
      await sandbox.exec(['rm', '-f', '--', `${file}.gone`]);
      const read = await sandbox.exec(['cat', '--', file], { outputCapBytes: 32 * 1024 * 1024 });
      await parseJunitReport(read.stdout);
    });
    const share = readMs / attemptMs;
    recordFigure('test-report', { name: 'reading the report, share of an attempt', value: share * 100, unit: '%', baseline: { name: 'the attempt', value: attemptMs }, target: `< ${targets.readShare * 100} %` });
    console.log(
      `reading the report in the sandbox (rm, cat, parse; ${TESTS} tests): ${readMs.toFixed(0)} ms beside the attempt's ${attemptMs.toFixed(0)} ms (${record.result.verdict_basis}, passed ${record.result.passed}): ${(share * 100).toFixed(2)} % — target < ${targets.readShare * 100} %: ${share < targets.readShare ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await sandbox.dispose();
  }
} finally {
  const left = await listManagedContainers({ runId });
  if (left.length > 0) await removeManagedContainers({ runId });
  rmSync(scratch, { recursive: true, force: true });
}
