import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { RunRecordSchema } from '../records/run-record.js';
import { AttemptDetailsSchema } from './attempt-details.js';
import { BenchSummarySchema } from './bench-summary.js';
import { checkArtifact, readArtifactFile } from './check-artifact.js';
import { LlmMessageRecordSchema } from './llm-message-record.js';
import { MatrixSummarySchema } from './matrix-summary.js';
import { ScenarioRunResultSchema } from './scenario-run-result.js';

// Real artifacts, written by `ab scenario run`, `ab scenario matrix`, `ab run-agent` and `ab run-task`
// on the bundled fixtures and toy task (see test/fixtures/real-artifacts/README.md).
const fixtures = path.join(import.meta.dirname, '../../test/fixtures/real-artifacts');
const real: Array<[string, v.GenericSchema, string]> = [
  ['scenario-result.json', ScenarioRunResultSchema, 'a scenario run result'],
  ['matrix-summary.json', MatrixSummarySchema, 'a matrix summary'],
  ['agent-run.json', RunRecordSchema, 'a run record'],
  ['task-run.json', RunRecordSchema, 'a run record'],
  ['attempt-details.json', AttemptDetailsSchema, "the harness's attempt details"],
  ['attempt-details-baseline.json', AttemptDetailsSchema, "the harness's attempt details"],
];

const scratch = await mkdtemp(path.join(os.tmpdir(), 'artifact-schemas-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

async function written(name: string, value: unknown): Promise<string> {
  const file = path.join(scratch, name);
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

async function realValue(name: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(fixtures, name), 'utf8')) as Record<string, unknown>;
}

describe('artifact schemas', () => {
  it.each(real)('reads the real %s', async (name, schema, expected) => {
    await expect(readArtifactFile(path.join(fixtures, name), schema, expected)).resolves.toBeDefined();
  });

  it('names the file, the field, what was expected and what was found for a malformed scenario result', async () => {
    const value = await realValue('scenario-result.json');
    const file = await written('result.json', { ...value, steps: [{ ...(value.steps as object[])[0], status: 'done' }] });
    await expect(readArtifactFile(file, ScenarioRunResultSchema, 'a scenario run result')).rejects.toThrow(
      `${file}: not a scenario run result: steps[0].status: expected ("completed" | "errored" | "skipped"), found "done"`,
    );
  });

  it('says a field is missing in a matrix summary', async () => {
    const { overall: _overall, ...rest } = await realValue('matrix-summary.json');
    const file = await written('summary.json', rest);
    await expect(readArtifactFile(file, MatrixSummarySchema, 'a matrix summary')).rejects.toThrow(`${file}: not a matrix summary: overall: missing (the field is required)`);
  });

  it('rejects a run.json with an unknown status', async () => {
    const file = await written('run.json', { ...(await realValue('task-run.json')), status: 'done' });
    await expect(readArtifactFile(file, RunRecordSchema, 'a run record')).rejects.toThrow(/run\.json: not a run record: status: expected \("running" \| .*\), found "done"/);
  });

  it('rejects attempt details whose stage has no duration', async () => {
    const value = await realValue('attempt-details.json');
    const file = await written('attempt.json', { ...value, stages: [{ stage: 'setup' }] });
    await expect(readArtifactFile(file, AttemptDetailsSchema, "the harness's attempt details")).rejects.toThrow(`${file}: not the harness's attempt details: stages[0].durationMs: missing (the field is required)`);
  });

  it('rejects a bench summary with a pass rate in words', () => {
    const model = { model: 'm', folder: '/f', dropped: false, probe: null, errors: [], attempts: 1, passed: 1, pass_rate: 'all', pass_rate_interval: null, errored_not_counted: 0, conservative_pass_rate: null, pass_at_k: [], mean_steps: null, mean_tokens: null, mean_cost_usd: null, total_cost_usd: null, cost_unknown_models: [], sandbox: null, mean_duration_sec: null, failures_by_reason: {}, ran: 1, counted: 1, errored_by_reason: {}, unverified_tasks: [], counts: null, flagged_attempts: 0, flagged_passed: 0 };
    const checked = checkArtifact(BenchSummarySchema, { out_dir: '/o', runs: 1, tasks: 1, models: [model] }, 'a bench summary');
    expect(checked).toEqual({ success: false, message: 'not a bench summary: models[0].pass_rate: expected number, found "all"' });
    expect(checkArtifact(BenchSummarySchema, { out_dir: '/o', runs: 1, tasks: 1, models: [{ ...model, pass_rate: 1 }] }, 'a bench summary').success).toBe(true);
  });

  it('rejects an llm_messages.jsonl line with an unknown direction', () => {
    const line = { run_id: 'r', step: 1, attempt: 1, direction: 'sideways', api: 'chat', model: 'm' };
    expect(checkArtifact(LlmMessageRecordSchema, line, 'an LLM message record')).toEqual({ success: false, message: 'not an LLM message record: direction: expected ("request" | "response" | "error"), found "sideways"' });
    expect(checkArtifact(LlmMessageRecordSchema, { ...line, direction: 'response', body: {} }, 'an LLM message record').success).toBe(true);
  });

  it('says which file is not JSON', async () => {
    const file = await written('broken.json', '{"run_id": ');
    await expect(readArtifactFile(file, RunRecordSchema, 'a run record')).rejects.toThrow(new RegExp(`^${file.replaceAll('.', '\\.')}: not valid JSON .*expected a run record$`));
  });
});
