import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ulid } from 'ulid';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { NetworkHolderPool } from '@agentbench/sandbox';
import { runMatrix } from '../src/matrix/run-matrix.js';
import { runScenario } from '../src/run/run-scenario.js';

const run = promisify(execFile);
const IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';


// Lines of a python code step (socket imported) printing whether it reaches the internet.
const networkProbeLines = [
  '      try:',
  "          socket.create_connection(('1.1.1.1', 53), timeout=2)",
  "          print('network: yes')",
  '      except OSError:',
  "          print('network: no')",
];

const skipReason = dockerSkipReason('docker-provider.docker.test.ts', IMAGE);

describe.skipIf(skipReason !== undefined)('the docker environment provider', () => {
  const runId = ulid();
  const folders: string[] = [];
  afterAll(async () => {
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    const { stdout } = await run('docker', ['ps', '-aq', '--filter', `label=dev.agentbench.run-id=${runId}`]);
    expect(stdout.trim()).toBe('');
  });

  it('runs python, javascript and typescript steps in the runner image (node copied in), with virtual files and no network', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-docker-'));
    folders.push(folder);
    const file = path.join(folder, 'docker.scenario.yaml');
    await writeFile(
      file,
      [
        'name: Docker steps',
        'description: code steps in a container',
        `environment: { type: docker, image: "${IMAGE}" }`,
        'setup:',
        '  virtual_fs:',
        '    deep/nested/input.txt: "from setup"',
        'run:',
        '  - lang: python',
        '    code: |',
        '      import os, socket',
        "      print(open('deep/nested/input.txt').read(), os.getcwd())",
        ...networkProbeLines,
        '    evaluations:',
        '      - { type: string_contains, value: "from setup /workspace" }',
        '      - { type: string_contains, value: "network: no" }',
        '  - lang: javascript',
        '    code: "require(\'fs\').writeFileSync(\'js.txt\', process.version)"',
        '    evaluations:',
        '      - { type: file_contains, path: js.txt, value: "v" }',
        '  - lang: typescript',
        '    code: "const n: number = 6 * 7; console.log(`answer ${n}`)"',
        '    evaluations:',
        '      - { type: string_contains, value: answer 42 }',
        'judgment: { strategy: all_pass }',
      ].join('\n'),
    );
    const notes: string[] = [];
    const result = await runScenario(file, { runId, writeResult: false, onEvent: (event) => (event.type === 'note' ? notes.push(event.message) : undefined) });
    expect(result.errors).toEqual([]);
    expect(result.evaluations.filter((evaluation) => !evaluation.success)).toEqual([]);
    expect(result.status).toBe('passed');
    expect(result.files['deep/nested/input.txt']).toBe('from setup');
    expect(result.files['js.txt']).toBe(process.version);
    expect(notes.some((note) => note.includes('has no node: copied the host'))).toBe(true);
  });

  async function holderIds(labels: string[]): Promise<string[]> {
    const filters = ['label=dev.agentbench.role=network-holder', ...labels.map((label) => `label=${label}`)].flatMap((filter) => ['--filter', filter]);
    const { stdout } = await run('docker', ['ps', '-aq', '--no-trunc', ...filters]);
    return stdout.split('\n').filter((line) => line !== '');
  }

  async function writeDockerMatrix(runs: number): Promise<{ folder: string; matrixFile: string }> {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-docker-matrix-'));
    folders.push(folder);
    await writeFile(
      path.join(folder, 'probe.scenario.yaml'),
      [
        'name: Docker probe',
        'description: one python step in a container without network',
        `environment: { type: docker, image: "${IMAGE}" }`,
        'run:',
        '  - lang: python',
        '    code: |',
        '      import socket',
        ...networkProbeLines,
        '    evaluations:',
        '      - { type: string_contains, value: "network: yes" }',
        'judgment: { strategy: all_pass }',
      ].join('\n'),
    );
    const matrixFile = path.join(folder, 'probe.matrix.yaml');
    await writeFile(
      matrixFile,
      ['name: Docker probe matrix', 'base_scenario: probe.scenario.yaml', `runs_per_combination: ${runs}`, 'matrix:', '  - parameter: run[0].evaluations[0].value', '    values: ["network: no"]'].join('\n'),
    );
    return { folder, matrixFile };
  }

  it('runs a matrix of docker scenarios on network holders started while the runs go, without network, and leaves none', async () => {
    const { folder, matrixFile } = await writeDockerMatrix(3);
    const pool = new NetworkHolderPool({ labels: { runId, taskId: 'matrix-holder' } });
    try {
      await pool.warm(IMAGE);
      const [first] = await holderIds([`dev.agentbench.run-id=${runId}`]);
      const summary = await runMatrix(matrixFile, { networkHolders: pool, outDir: path.join(folder, 'out') });
      expect(summary.runs.map((record) => [record.status, record.error])).toEqual([
        ['passed', undefined],
        ['passed', undefined],
        ['passed', undefined],
      ]);
      // Each run took the ready holder (and removed it with its sandbox); one spare is left.
      const left = await holderIds([`dev.agentbench.run-id=${runId}`]);
      expect(left).toHaveLength(1);
      expect(left).not.toContain(first);
    } finally {
      await pool.dispose();
    }
    expect(await holderIds([`dev.agentbench.run-id=${runId}`])).toEqual([]);
  });

  it('makes its own pool for a docker matrix and removes it when the matrix ends', async () => {
    const { folder, matrixFile } = await writeDockerMatrix(2);
    // The first run's take starts the pool's holder; by the time that run ends it exists.
    let duringRun: Promise<string[]> | undefined;
    const summary = await runMatrix(matrixFile, {
      outDir: path.join(folder, 'out'),
      onProgress: (event) => {
        if (event.type === 'run-finished' && event.done === 1) duringRun = holderIds([`dev.agentbench.pid=${process.pid}`]);
      },
    });
    expect(summary.runs.every((record) => record.status === 'passed')).toBe(true);
    expect((await duringRun)?.length).toBeGreaterThanOrEqual(1);
    expect(await holderIds([`dev.agentbench.pid=${process.pid}`])).toEqual([]);
  });
});
