#!/usr/bin/env node
// What mounting an installed agent adds to a Docker sandbox's start: create + start + a first
// command, with the agent's read-only mounts against the same without them, in alternating
// order in the same run (the baseline). The target (issue 25) is under 50 ms added. The agent is
// codex from the host cache when `ab agents install codex` put it there; else a stand-in folder
// of the same shape (a bind mount costs the same whatever the folder holds), named as such.
// Reports, always exits 0, leaves nothing behind.
//
//   node packages/installed-agents/bench/mount.bench.mjs [--starts 12]
//
// Imports the built packages (../dist, @agentbench/sandbox's dist).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '@agentbench/sandbox';
import { isSkippedWithoutDocker, percentile, recordFigure, sized, wholeNumberArgument } from '../../../scripts/bench-figures.mjs';
import { findAgentDefinition, installAgent, isAgentInstalled } from '../dist/index.js';

const bench = 'installed-agent-mount';
const targetAddedMs = 50;
const starts = sized(wholeNumberArgument('starts', 12), 1);
const labels = { 'dev.agentbench.run-id': 'installed-agents-mount-bench' };

async function agentMounts(scratch) {
  const codex = await findAgentDefinition('codex');
  if (await isAgentInstalled(codex)) return { what: `codex ${codex.version} from the host cache`, mounts: (await installAgent(codex)).mounts };
  const folder = join(scratch, 'stand-in-agent');
  await mkdir(join(folder, 'node_modules', 'agent', 'bin'), { recursive: true });
  await writeFile(join(folder, 'node_modules', 'agent', 'bin', 'agent'), '#!/bin/sh\necho agent\n', { mode: 0o755 });
  return { what: 'a stand-in agent folder (codex is not in the host cache)', mounts: [{ hostPath: folder, sandboxPath: '/opt/agentbench/agent' }] };
}

async function timedStart(spec) {
  const started = performance.now();
  const sandbox = await createSandbox('docker', { hasNetwork: false, labels, ...spec });
  try {
    const result = await sandbox.exec(['true']);
    if (result.exitCode !== 0) throw new Error(`the first command failed: ${result.stderr}`);
    return performance.now() - started;
  } finally {
    await sandbox.dispose();
  }
}

if (!isSkippedWithoutDocker(bench)) {
  const scratch = await mkdtemp(join(tmpdir(), 'installed-agents-mount-bench-'));
  try {
    const { what, mounts } = await agentMounts(scratch);
    const bare = [];
    const mounted = [];
    // One warm-up each, then alternating order so both see the same load.
    await timedStart({});
    await timedStart({ readOnlyMounts: mounts });
    for (let index = 0; index < starts; index += 1) {
      if (index % 2 === 0) {
        bare.push(await timedStart({}));
        mounted.push(await timedStart({ readOnlyMounts: mounts }));
      } else {
        mounted.push(await timedStart({ readOnlyMounts: mounts }));
        bare.push(await timedStart({}));
      }
    }
    const bareMedian = percentile(bare, 0.5);
    const mountedMedian = percentile(mounted, 0.5);
    recordFigure(bench, {
      name: 'docker sandbox start with the agent mounted read-only, median',
      value: mountedMedian,
      unit: 'ms',
      baseline: { name: 'the same start without mounts', value: bareMedian },
      target: `< ${targetAddedMs} ms added`,
    });
    console.log(`docker sandbox start (create, start, first command), ${starts} starts each, alternating; agent: ${what}`);
    console.log(`  without mounts ${bareMedian.toFixed(1)} ms median, with the agent mounted ${mountedMedian.toFixed(1)} ms median: ${(mountedMedian - bareMedian).toFixed(1)} ms added (target < ${targetAddedMs} ms)`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
