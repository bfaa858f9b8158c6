import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Dockerode from 'dockerode';
import { EngineSet, listManagedContainers } from '@agentbench/sandbox';
import type { AttemptRecord } from '@agentbench/schemas';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { skipUnlessRequired } from '../../../test-support/skip-unless-required.js';
import { createSecondEngine, secondEngineSkipReason, type SecondEngine } from './second-engine.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Why the engines tests cannot run here (no Docker, not root...), warned once; throws under AGENTBENCH_REQUIRE_DOCKER=1. */
export function twoEnginesSkipReason(fileName: string): string | undefined {
  const docker = dockerSkipReason(fileName);
  if (docker !== undefined) return docker;
  const reason = secondEngineSkipReason();
  return skipUnlessRequired(fileName, reason === undefined ? undefined : `the second engine cannot be made: ${reason}`, 'AGENTBENCH_REQUIRE_DOCKER');
}

/** The local engine and a second dockerd (see second-engine.ts), an engines file naming both, and a suite `engines` of toy tasks. */
export interface TwoEngines {
  engine: SecondEngine;
  scratch: string;
  enginesFile: string;
  tasksDir: string;
  taskIds: string[];
  /** Stops the second engine and removes everything made here. */
  destroy(): void;
}

/** A suite of `taskCount` copies of the toy task whose baseline fails as expected (and which the scripted agent fixes). */
function writeSuite(dir: string, taskCount: number): string[] {
  const original = readFileSync(path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'), 'utf8');
  const ids: string[] = [];
  for (let index = 1; index <= taskCount; index += 1) {
    const id = `engines_toy_${index}`;
    const task = original
      .replace(/^id: .*$/m, `id: ${id}`)
      .replace(/^suite: .*$/m, 'suite: engines')
      .replace(/url: .*toy_repo\.git$/m, `url: ${path.join(repoRoot, 'fixtures/repos/toy_repo.git')}`)
      // A shared build machine can be slow: the engines, not the toy task's 60 s, are under test.
      .replace(/^  timeout_sec: \d+$/m, '  timeout_sec: 300');
    mkdirSync(path.join(dir, 'engines', id), { recursive: true });
    writeFileSync(path.join(dir, 'engines', id, 'task.yaml'), task);
    ids.push(id);
  }
  return ids;
}

export async function setUpTwoEngines(options: { taskCount: number; capacity: number; scratchPrefix: string }): Promise<TwoEngines> {
  const scratch = mkdtempSync(path.join(tmpdir(), options.scratchPrefix));
  const engine = createSecondEngine();
  await engine.start();
  const enginesFile = path.join(scratch, 'engines.json');
  writeFileSync(
    enginesFile,
    JSON.stringify({
      engines: [
        { name: 'local', host: 'unix:///var/run/docker.sock', capacity: options.capacity },
        { name: 'second', host: engine.host, tls: engine.tls, capacity: options.capacity },
      ],
    }),
  );
  const tasksDir = path.join(scratch, 'tasks');
  const taskIds = writeSuite(tasksDir, options.taskCount);
  return {
    engine,
    scratch,
    enginesFile,
    tasksDir,
    taskIds,
    destroy: () => {
      engine.destroy();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

export function readRecords(runDir: string): AttemptRecord[] {
  return readFileSync(path.join(runDir, 'attempts.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AttemptRecord);
}

/** The engine set of the engines file (to look at each engine from the test). */
export async function openEngines(enginesFile: string): Promise<EngineSet> {
  return EngineSet.open(JSON.parse(readFileSync(enginesFile, 'utf8')).engines);
}

/**
 * Stops the second engine once an attempt has been running on it for a moment (a managed container there,
 * then 1.5 s). Every look at the engine is bounded, so a stuck engine cannot hang the test. `cancel()` ends
 * the watch when the run finished first; `done` resolves when it has stopped the engine or given up.
 */
export function stopSecondEngineWhenBusy(setup: TwoEngines, second: Dockerode): { cancel(): void; done: Promise<void> } {
  let isCancelled = false;
  const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const done = (async () => {
    for (let waited = 0; waited < 600_000 && !isCancelled; waited += 250) {
      const containers = await Promise.race([listManagedContainers({}, { docker: second }).catch(() => []), pause(5_000).then(() => [])]);
      if (containers.length > 0) {
        await pause(1_500);
        await setup.engine.stop();
        return;
      }
      await pause(250);
    }
  })();
  return {
    cancel: () => {
      isCancelled = true;
    },
    done,
  };
}

/** `engine: container` for every managed container matching the filter on either engine (an engine that does not answer throws). */
export async function managedOnBoth(enginesFile: string, filter: { runId?: string; creatorPid?: number }): Promise<string[]> {
  const engineSet = await openEngines(enginesFile);
  const names: string[] = [];
  for (const { name, docker } of engineSet.engines) {
    for (const container of await listManagedContainers(filter.runId === undefined ? {} : { runId: filter.runId }, { docker })) {
      if (filter.creatorPid === undefined || container.creatorPid === filter.creatorPid) names.push(`${name}: ${container.name}`);
    }
  }
  return names;
}
