import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMatrixSummary } from '../src/matrix/format-matrix-summary.js';
import { runMatrix, type MatrixProgressEvent, type MatrixSummary } from '../src/matrix/run-matrix.js';
import type { ScenarioRunResult } from '../src/run/scenario-result.js';
import { llmSettings, SCENARIOS, startScenarioLlm, userMessages } from './helpers/scenario-llm.js';

describe('a matrix with repeats', () => {
  let server: FakeLlmServer;
  let folder: string;
  let summary: MatrixSummary;
  const progress: MatrixProgressEvent[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'scenario-matrix-'));
    server = await startScenarioLlm({ agent: (body) => `Hello! You asked: ${userMessages(body).at(-1)}` });
    summary = await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), {
      llm: llmSettings(server),
      outDir: folder,
      parallel: 2,
      seed: 99,
      onProgress: (event) => progress.push(event),
    });
  });

  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('runs every combination runs_per_combination times, each isolated with its own seed', () => {
    expect(summary.runs).toHaveLength(8);
    expect(new Set(summary.runs.map((run) => run.run_id)).size).toBe(8);
    expect(new Set(summary.runs.map((run) => run.seed)).size).toBe(8);
    expect(summary.runs.map((run) => `${run.combination}/${run.repeat}/${run.passed}`)).toEqual([
      'combination-001/1/true',
      'combination-001/2/true',
      'combination-002/1/false',
      'combination-002/2/false',
      'combination-003/1/true',
      'combination-003/2/true',
      'combination-004/1/false',
      'combination-004/2/false',
    ]);
  });

  it('aggregates success rate and pass^k per combination, per parameter value and overall', () => {
    expect(summary.combinations.map((row) => [row.id, row.success_rate, row.pass_hat_k])).toEqual([
      ['combination-001', 1, 1],
      ['combination-002', 0, 0],
      ['combination-003', 1, 1],
      ['combination-004', 0, 0],
    ]);
    const expectedWord = summary.parameters.find((parameter) => parameter.parameter === 'run[0].evaluations[0].value');
    expect(expectedWord?.values.map((value) => [value.value, value.success_rate, value.pass_hat_k])).toEqual([
      ['Hello', 1, 1],
      ['Goodbye', 0, 0],
    ]);
    const input = summary.parameters.find((parameter) => parameter.parameter === 'run[0].input');
    expect(input?.values.map((value) => value.success_rate)).toEqual([0.5, 0.5]);
    expect(summary.overall).toMatchObject({ runs: 8, passed: 4, success_rate: 0.5, pass_hat_k: 0.5 });
  });

  it('writes one folder per run and summary.json', async () => {
    const runs = await readdir(path.join(folder, 'runs'));
    expect(runs.sort()).toEqual(['combination-001__r1', 'combination-001__r2', 'combination-002__r1', 'combination-002__r2', 'combination-003__r1', 'combination-003__r2', 'combination-004__r1', 'combination-004__r2']);
    const written = JSON.parse(await readFile(path.join(folder, 'summary.json'), 'utf8')) as MatrixSummary;
    expect(written.overall.passed).toBe(4);
    const run = JSON.parse(await readFile(path.join(folder, 'runs', 'combination-003__r2', 'result.json'), 'utf8')) as ScenarioRunResult;
    expect(run.parameters.matrix).toEqual({ combination: 'combination-003', parameters: { 'run[0].input': 'Good morning', 'run[0].evaluations[0].value': 'Hello' }, repeat: 1 });
    expect(run.final_response).toBe('Hello! You asked: Good morning');
  });

  it('reports progress for each run and prints the aggregate', () => {
    expect(progress.filter((event) => event.type === 'run-finished').map((event) => (event as { done: number }).done)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const text = formatMatrixSummary(summary);
    expect(text).toContain('per parameter value:');
    expect(text).toMatch(/"Goodbye"\s+0\.0%\s+0\/4\s+pass\^k\s+0\.0%/);
  });

  it('filters combinations and dry-runs without calling a model', async () => {
    const before = server.requests.length;
    const dryRun = await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), { isDryRun: true, filter: 'goodbye' });
    expect(dryRun.combinations.map((combination) => combination.id)).toEqual(['combination-002', 'combination-004']);
    expect(dryRun.totalRuns).toBe(4);
    expect(dryRun.plan.errors).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('reports a base scenario that does not exist, resolved against the matrix file', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'matrix-missing-base-'));
    try {
      const matrixFile = path.join(folder, 'missing-base.matrix.yaml');
      await writeFile(matrixFile, ['name: Missing base', 'base_scenario: examples/nowhere.scenario.yaml', 'runs_per_combination: 1', 'matrix:', '  - parameter: run[0].input', '    values: [hello]'].join('\n'));
      await expect(runMatrix(matrixFile)).rejects.toThrow(new RegExp(`base_scenario: ${folder}/examples/nowhere.scenario.yaml not found`));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('a matrix that is stopped', () => {
  it('starts no run after its signal is aborted, and lists the runs it never started as errored', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-matrix-stop-'));
    const server = await startScenarioLlm({ agent: (body) => `Hello! You asked: ${userMessages(body).at(-1)}` });
    const controller = new AbortController();
    const started: number[] = [];
    try {
      const summary = await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), {
        llm: llmSettings(server),
        outDir: folder,
        parallel: 1,
        seed: 99,
        signal: controller.signal,
        onProgress: (event) => {
          if (event.type !== 'run-started') return;
          started.push(event.index);
          controller.abort();
        },
      });
      expect(started).toEqual([0]);
      expect(summary.runs).toHaveLength(8);
      const notStarted = summary.runs.filter((run) => run.error === 'not started: the matrix run was stopped');
      expect(notStarted).toHaveLength(7);
      expect(notStarted.every((run) => run.status === 'errored' && !run.passed)).toBe(true);
      expect(summary.overall.passed).toBe(summary.runs.filter((run) => run.passed).length);
    } finally {
      await server.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('resumes a stopped matrix: the journalled runs are kept, the others run with their planned seeds, another plan is refused', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'scenario-matrix-resume-'));
    const server = await startScenarioLlm({ agent: (body) => `Hello! You asked: ${userMessages(body).at(-1)}` });
    const controller = new AbortController();
    try {
      await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), {
        llm: llmSettings(server),
        outDir: folder,
        parallel: 1,
        seed: 99,
        signal: controller.signal,
        onProgress: (event) => {
          if (event.type === 'run-finished') controller.abort();
        },
      });
      const journal = (await readFile(path.join(folder, 'runs.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
      expect(journal).toHaveLength(1);
      const kept = JSON.parse(journal[0] as string) as { run_id: string; combination: string; repeat: number };
      // A kill -9 during a write leaves a torn line: the resume cuts it off.
      await writeFile(path.join(folder, 'runs.jsonl'), `${journal[0]}\n{"combination":"comb`);

      await expect(runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), { llm: llmSettings(server), resumeDir: folder, filter: 'goodbye' })).rejects.toThrow(/another plan \(filter: the run has null, this command asks for "goodbye"\)/);
      const started: string[] = [];
      const resumed = await runMatrix(path.join(SCENARIOS, 'greeting.matrix.yaml'), {
        llm: llmSettings(server),
        resumeDir: folder,
        parallel: 2,
        onProgress: (event) => {
          if (event.type === 'run-started') started.push(`${event.combination.id}#${event.repeat}`);
        },
      });
      expect(started).toHaveLength(7);
      expect(started).not.toContain(`${kept.combination}#${kept.repeat}`);
      expect(resumed.runs).toHaveLength(8);
      expect(resumed.runs.find((run) => run.combination === kept.combination && run.repeat === kept.repeat)?.run_id).toBe(kept.run_id);
      expect(resumed.seed).toBe(99);
      expect(resumed.runs.every((run) => run.error === undefined)).toBe(true);
      const lines = (await readFile(path.join(folder, 'runs.jsonl'), 'utf8')).split('\n').filter((line) => line !== '');
      expect(lines.map((line) => JSON.parse(line) as { combination: string; repeat: number }).map((run) => `${run.combination}#${run.repeat}`).sort()).toHaveLength(8);
    } finally {
      await server.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
