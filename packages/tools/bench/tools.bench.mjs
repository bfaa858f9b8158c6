#!/usr/bin/env node
// Benchmark of the harness overhead of the tools: for read_file, search, apply_patch and
// run, the median time of a tool call against the median of the bare sandbox operation it
// wraps, measured in the same run, interleaved. The difference is our own overhead
// (parameter validation, path checks, parsing, result building, artifacts); the target is
// under 5 ms per call. Uses a DockerSandbox with the runner image when an engine and the
// image are there, else a LocalSandbox, and says which. Reports, exits 0 whatever the timings
// and 1 on an exception, and leaves no container behind.
//
//   node packages/tools/bench/tools.bench.mjs [--runs 60] [--quick]
//
// Imports the built packages (../dist/index.js and @agentbench/sandbox's dist).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerSandbox, LocalSandbox } from '@agentbench/sandbox';
import { createToolSet } from '../dist/index.js';
import { recordFigure, sized } from '../../../scripts/bench-figures.mjs';

const image = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0';
const targetOverheadMs = 5;
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? sized(60, 2) : Number(process.argv[runsFlag + 1]);
const warmups = sized(5, 1);

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function timed(action) {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

/** A small Python repository: 40 modules of 120 lines, tests, a README. */
function repositoryFiles(prefix) {
  const files = {};
  for (let module = 0; module < 40; module += 1) {
    const lines = [];
    for (let index = 0; index < 30; index += 1) lines.push(`def function_${module}_${index}(value):`, `    """Doc ${index}."""`, `    return value + ${index}`, '');
    files[`${prefix}src/package/module_${module}.py`] = `${lines.join('\n')}\n`;
  }
  files[`${prefix}src/calc.py`] = 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n';
  files[`${prefix}tests/test_calc.py`] = 'from src.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n';
  files[`${prefix}README.md`] = '# Bench\n';
  return files;
}

/**
 * Wraps a sandbox to measure the wall time during which at least one of its operations is
 * in flight, so a tool call's own time (validation, parsing, results, artifacts) can be
 * told apart from time spent waiting on the sandbox.
 */
function measured(sandbox) {
  let active = 0;
  let busySince = 0;
  let busyTotal = 0;
  const wrapped = new Proxy(sandbox, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (!['exec', 'readFile', 'writeFile', 'listFiles', 'setNetwork'].includes(property)) return value.bind(target);
      return async (...args) => {
        if (active === 0) busySince = performance.now();
        active += 1;
        try {
          return await value.apply(target, args);
        } finally {
          active -= 1;
          if (active === 0) busyTotal += performance.now() - busySince;
        }
      };
    },
  });
  return { sandbox: wrapped, takeBusyMs: () => { const total = busyTotal; busyTotal = 0; return total; } };
}

async function openSandbox() {
  try {
    const sandbox = await DockerSandbox.create({ image, files: repositoryFiles('repo/'), labels: { runId: `bench-tools-${process.pid}`, taskId: 'bench' } });
    return { sandbox, root: `${sandbox.workdir}/repo`, backend: `docker (${image}, ${sandbox.commandPath})` };
  } catch (error) {
    const sandbox = await LocalSandbox.create({ files: repositoryFiles('') }, { isWarningSilenced: true });
    return { sandbox, root: sandbox.workdir, backend: `local (Docker not used: ${String(error.message).split('\n')[0]})` };
  }
}

const forward = '--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n';
const backward = '--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a - b\n';
const searchArgv = ['rg', '--json', '--no-config', '--ignore-case', '--sort', 'path', '--context', '2', '--max-count', '51', '--max-columns', '2000', '--max-columns-preview', '--fixed-strings', '--regexp', 'def function_7_1(', '--', '.'];

async function main() {
  const { sandbox, root, backend } = await openSandbox();
  const artifactsDir = await mkdtemp(join(tmpdir(), 'agentbench-tools-bench-'));
  const stop = async () => {
    await sandbox.dispose().catch(() => undefined);
    await rm(artifactsDir, { recursive: true, force: true }).catch(() => undefined);
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    const probe = measured(sandbox);
    const tools = createToolSet({ sandbox: probe.sandbox, root, artifactsDir });
    let requestNumber = 0;
    const call = async (tool, params) => {
      requestNumber += 1;
      const result = await tools.execute({ tool, params, request_id: `bench-${requestNumber}` });
      if (result.status !== 'success') throw new Error(`${tool} failed: ${result.error?.message}`);
      return result;
    };
    const calcPath = `${root}/src/calc.py`;
    let patchNumber = 0;
    let bareContent = 'x';
    const cases = [
      {
        name: 'read_file',
        bare: () => sandbox.readFile(calcPath),
        tool: () => call('read_file', { path: 'src/calc.py' }),
      },
      {
        name: 'search',
        bare: () => sandbox.exec(searchArgv, { cwd: root, timeoutSec: 60, outputCapBytes: 8 * 1024 * 1024 }),
        tool: () => call('search', { query: 'def function_7_1(' }),
      },
      {
        name: 'apply_patch',
        // The least a patch needs from the sandbox: read the file, write it back.
        bare: async () => {
          bareContent = new TextDecoder().decode(await sandbox.readFile(`${root}/README.md`));
          await sandbox.writeFile(`${root}/README.md`, bareContent);
        },
        tool: () => {
          patchNumber += 1;
          return call('apply_patch', { unified_diff: patchNumber % 2 === 1 ? forward : backward });
        },
      },
      {
        name: 'run',
        bare: () => sandbox.exec('true', { cwd: root }),
        tool: () => call('run', { command: 'true' }),
      },
    ];
    console.log(`tools bench: ${runs} runs per line (after ${warmups} warm-ups), sandbox backend: ${backend}`);
    console.log('tool          bare median   tool median   overhead   target    result   (own time: tool call minus time waiting on the sandbox)');
    for (const entry of cases) {
      for (let index = 0; index < warmups; index += 1) {
        await entry.bare();
        await entry.tool();
      }
      const bare = [];
      const tool = [];
      const own = [];
      const timeTool = async () => {
        probe.takeBusyMs();
        const duration = await timed(entry.tool);
        tool.push(duration);
        own.push(duration - probe.takeBusyMs());
      };
      for (let index = 0; index < runs; index += 1) {
        // Alternate the order so drift hits both sides alike.
        if (index % 2 === 0) {
          bare.push(await timed(entry.bare));
          await timeTool();
        } else {
          await timeTool();
          bare.push(await timed(entry.bare));
        }
      }
      const bareMedian = median(bare);
      const toolMedian = median(tool);
      const overhead = toolMedian - bareMedian;
      const verdict = overhead < targetOverheadMs ? 'PASS' : 'FAIL';
      recordFigure('tools', { name: `${entry.name} tool call, median`, value: toolMedian, unit: 'ms', baseline: { name: 'bare sandbox operation', value: bareMedian }, target: `overhead < ${targetOverheadMs} ms` });
      console.log(
        `${entry.name.padEnd(13)} ${bareMedian.toFixed(2).padStart(8)} ms  ${toolMedian.toFixed(2).padStart(9)} ms  ${overhead.toFixed(2).padStart(6)} ms   < ${targetOverheadMs} ms    ${verdict}     (own time ${median(own).toFixed(2)} ms)`,
      );
    }
  } finally {
    await stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(`tools bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
}
