#!/usr/bin/env node
// Times DockerSandbox.copyIn and copyOut (the archive API: our tar writer on the way in,
// our tar reader and the hostile-archive extractor on the way out) for a small tree and a
// ~50 MB one. Reports and always exits 0; leaves no container behind.
//
//   node packages/sandbox/bench/copy.bench.mjs [--runs 5]
//
// Imports the built package (../dist/index.js); AGENTBENCH_SANDBOX_MODULE may point at
// another build of it (to compare two versions on the same machine).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const image = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0';
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag === -1 ? 5 : Number(process.argv[runsFlag + 1]);

/** A source-like tree: `files` files of `fileBytes` each, 20 to a folder. */
async function makeTree(root, files, fileBytes) {
  for (let index = 0; index < files; index++) {
    const folder = join(root, `dir-${Math.floor(index / 20)}`);
    await mkdir(folder, { recursive: true });
    // Not all zeros, so nothing on the way can take a shortcut.
    const body = Buffer.alloc(fileBytes, (index % 251) + 1);
    await writeFile(join(folder, `file-${index}.txt`), body);
  }
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

const moduleUrl = process.env.AGENTBENCH_SANDBOX_MODULE ?? new URL('../dist/index.js', import.meta.url).href;
const { DockerSandbox, removeManagedContainers } = await import(moduleUrl);
const base = await mkdtemp(join(tmpdir(), 'agentbench-copy-bench-'));
const runId = `copy-bench-${process.pid}-${Date.now().toString(36)}`;
let sandbox;
try {
  const trees = [
    { name: 'small (20 files × 1 KiB)', files: 20, fileBytes: 1024 },
    { name: '~50 MB (500 files × 100 KiB)', files: 500, fileBytes: 100 * 1024 },
  ];
  sandbox = await DockerSandbox.create({ image, labels: { runId, taskId: 'bench' } });
  console.log(`copy benchmark: ${runs} runs each, image ${image}, module ${moduleUrl}`);
  console.log('tree | copyIn median ms | copyOut median ms');
  for (const [treeIndex, tree] of trees.entries()) {
    const source = join(base, `source-${treeIndex}`);
    await makeTree(source, tree.files, tree.fileBytes);
    const copyIns = [];
    const copyOuts = [];
    for (let run = 0; run < runs; run++) {
      const target = `tree-${treeIndex}-${run}`;
      let started = performance.now();
      await sandbox.copyIn(source, target);
      copyIns.push(performance.now() - started);
      const destination = join(base, `out-${treeIndex}-${run}`);
      started = performance.now();
      await sandbox.copyOut(target, destination);
      copyOuts.push(performance.now() - started);
      await rm(destination, { recursive: true, force: true });
      await sandbox.exec(['rm', '-rf', target]);
    }
    console.log(`${tree.name} | ${median(copyIns).toFixed(1)} | ${median(copyOuts).toFixed(1)}`);
  }
} finally {
  await sandbox?.dispose();
  await removeManagedContainers({ runId }).catch(() => undefined);
  await rm(base, { recursive: true, force: true });
}
