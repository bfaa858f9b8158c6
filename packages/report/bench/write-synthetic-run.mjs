#!/usr/bin/env node
// Writes a suite-style run folder of N synthetic, schema-valid attempt records (run.json and
// attempts.jsonl, no logs), the layout `ab report` reads. Deterministic: the same N gives the same
// folder. A few records carry sandbox-like text (`</script>`, quotes, U+2028) in free-text fields,
// so the page's escaping is exercised at scale too.
//
//   node packages/report/bench/write-synthetic-run.mjs DIR N
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '@agentbench/scoring';

const MODELS = ['gpt-4o-mini', 'claude-3-5-sonnet', 'llama-3.1-70b', 'qwen-2.5-coder'];
const FAILURE_REASONS = ['TESTS_FAILED', 'AGENT_GAVE_UP', 'TIMEOUT', 'LLM_ERROR', 'SANDBOX_ERROR'];
const STOP_REASONS = ['MAX_STEPS', 'AGENT_GAVE_UP', 'MAX_TIME', 'LLM_ERROR', 'MAX_STEPS'];
const HOSTILE_MODEL_NAME = '</script><script>alert(1)</script>\u2028"quoted"';

/** One schema-valid AttemptRecord (schema_version 0.1.0) of an LLM agent attempt. */
export function syntheticAttemptRecord(index, random, runId = 'synthetic-run') {
  const start = Date.UTC(2025, 2, 1, 10, 0, 0) + index * 7_000;
  const durationSec = Math.round((5 + random() * 120) * 10) / 10;
  const passed = random() < 0.4;
  const reasonIndex = Math.floor(random() * FAILURE_REASONS.length);
  const failureReason = passed ? null : FAILURE_REASONS[reasonIndex];
  const inputTokens = Math.floor(2_000 + random() * 40_000);
  const outputTokens = Math.floor(200 + random() * 4_000);
  return {
    schema_version: '0.1.0',
    run_id: runId,
    task_id: `task_${String(index % 500).padStart(4, '0')}`,
    suite: 'synthetic',
    timestamp_start: new Date(start).toISOString(),
    timestamp_end: new Date(start + durationSec * 1000).toISOString(),
    duration_sec: durationSec,
    baseline_validation: { attempted: false, failed_as_expected: false, exit_code: null, failure_reason: null },
    result: { passed, exit_code: passed ? 0 : 1, failure_reason: failureReason, stop_reason: passed ? 'SUCCESS' : STOP_REASONS[reasonIndex] },
    artifact_paths: {},
    variant: 'llm',
    model: { provider: 'openai-compatible', name: index % 997 === 13 ? HOSTILE_MODEL_NAME : MODELS[index % MODELS.length], temperature: 0 },
    limits: { timeout_sec: 600, max_steps: 30 },
    metrics: { steps: Math.floor(1 + random() * 30), tool_calls: Math.floor(random() * 40), input_tokens: inputTokens, output_tokens: outputTokens, cost_usd: Math.round((inputTokens * 0.15 + outputTokens * 0.6) / 10_000) / 100 },
  };
}

/** Writes `<dir>/run.json` and `<dir>/attempts.jsonl` with `count` records; returns `dir`. */
export async function writeSyntheticRun(dir, count, { seed = 1 } = {}) {
  // Deterministic, so runs are comparable.
  const random = seededRandom(seed);
  await mkdir(dir, { recursive: true });
  const lines = [];
  for (let index = 0; index < count; index += 1) lines.push(JSON.stringify(syntheticAttemptRecord(index, random)));
  await writeFile(path.join(dir, 'attempts.jsonl'), `${lines.join('\n')}\n`);
  const run = {
    run_id: 'synthetic-run',
    kind: 'agent',
    created_at: '2025-03-01T10:00:00.000Z',
    finished_at: '2025-03-02T10:00:00.000Z',
    harness_version: '0.1.0',
    suite: 'synthetic',
    task_ids: [...new Set(Array.from({ length: Math.min(count, 500) }, (_, index) => `task_${String(index).padStart(4, '0')}`))],
    options: {},
    status: 'completed',
    counts: null,
  };
  await writeFile(path.join(dir, 'run.json'), `${JSON.stringify(run, null, 2)}\n`);
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, countText] = process.argv.slice(2);
  const count = Number(countText);
  if (dir === undefined || !Number.isInteger(count) || count < 1) {
    console.error('usage: node write-synthetic-run.mjs DIR N   (N: a positive whole number of attempt records)');
    process.exit(1);
  }
  await writeSyntheticRun(dir, count);
  console.log(`wrote ${count} attempt records to ${path.join(dir, 'attempts.jsonl')}`);
}
