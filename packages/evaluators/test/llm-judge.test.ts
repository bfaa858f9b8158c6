import { lastUserText, type FakeReply, type RecordedRequest } from '@agentbench/fake-llm-server';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEvaluationContext, type EvaluationContext } from '../src/context/evaluation-context.js';
import type { CachedJudgeExchange } from '../src/judge/judge-configuration.js';
import type { LlmJudgeDetails } from '../src/evaluators/llm-judge/llm-judge-evaluator.js';
import { createEvaluatorRegistry } from '../src/registry/evaluator-registry.js';
import { jsonReply, no, startJudgeFixture, yes, type JudgeFixture } from './helpers/judge-server.js';

const registry = createEvaluatorRegistry();
let fixture: JudgeFixture | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function start(script?: readonly FakeReply[] | ((request: RecordedRequest) => FakeReply | undefined)): Promise<JudgeFixture> {
  fixture = await startJudgeFixture(script);
  return fixture;
}

function context(judge: JudgeFixture, overrides: Partial<EvaluationContext> = {}, llm: Parameters<JudgeFixture['llm']>[0] = {}): EvaluationContext {
  return createEvaluationContext({ response: 'Hello! I am fine, thank you.', llm: judge.llm(llm), ...overrides });
}

const greeting = { type: 'llm_judge', prompt: 'Did the agent respond appropriately to the greeting?', expected: 'yes' };

async function cacheFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true });
  return entries.filter((entry) => entry.endsWith('.json')).map((entry) => path.join(directory, entry));
}

describe('llm_judge against an OpenAI-compatible server', () => {
  it('passes on a good answer, asking for the JSON schema response format, and counts the tokens', async () => {
    const judge = await start([yes()]);
    const report = await registry.evaluate(greeting, context(judge));
    expect(report).toMatchObject({ success: true, score: 1, message: 'LLM judge: yes (confidence 0.9), expected judgment "yes"' });
    expect((report.details as LlmJudgeDetails).usage).toEqual({ promptTokens: 100, completionTokens: 20, totalTokens: 120 });
    const [body] = judge.bodies();
    expect(body).toMatchObject({
      model: 'judge-model',
      temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'judgment', strict: true, schema: { type: 'object', required: ['judgment', 'confidence', 'reasoning'], additionalProperties: false } },
      },
    });
    const prompt = lastUserText(judge.server.requests[0]!) ?? '';
    expect(prompt).toContain('Did the agent respond appropriately to the greeting?');
    expect(prompt).toContain('Hello! I am fine, thank you.');
    // The judge is not told the expected answer, so it cannot lean towards it.
    expect(prompt).not.toMatch(/expected/i);
  });

  it('fails (a score, not an error) when the judgment differs from expected, compared as a whole value', async () => {
    const judge = await start([no(), jsonReply({ judgment: 'yes', confidence: 1, reasoning: 'r' })]);
    const report = await registry.evaluate(greeting, context(judge));
    expect(report).toMatchObject({ success: false, score: 0 });
    expect(report.error).toBeUndefined();
    const exact = await registry.evaluate({ ...greeting, expected: 'ye' }, context(judge));
    expect(exact.success).toBe(false);
  });

  it('treats malformed JSON as an evaluation error, never a pass, even when negated', async () => {
    const judge = await start(['{"judgment": "yes", "confidence": 0.9,']);
    const report = await registry.evaluate({ ...greeting, negate: true }, context(judge));
    expect(report.success).toBe(false);
    expect(report.negated).toBe(true);
    expect(report.error).toMatch(/^the judge's answer is not valid JSON/);
  });

  it('treats an out-of-range confidence as an evaluation error', async () => {
    const judge = await start([jsonReply({ judgment: 'yes', confidence: 1.5, reasoning: 'sure' })]);
    const report = await registry.evaluate(greeting, context(judge));
    expect(report).toMatchObject({ success: false, error: "the judge's answer does not match the schema: confidence: expected a number <= 1, found 1.5" });
    expect(report.score).toBeUndefined();
  });

  it('treats a missing field, an extra field or a judgment outside the enum as an evaluation error', async () => {
    const judge = await start([
      jsonReply({ judgment: 'yes', confidence: 0.9 }),
      jsonReply({ judgment: 'yes', confidence: 0.9, reasoning: 'r', mood: 'happy' }),
      jsonReply({ judgment: 'maybe', confidence: 0.9, reasoning: 'r' }),
    ]);
    expect((await registry.evaluate(greeting, context(judge))).error).toBe("the judge's answer does not match the schema: reasoning: required field is missing");
    expect((await registry.evaluate(greeting, context(judge))).error).toBe(
      "the judge's answer does not match the schema: mood: unexpected field (allowed: judgment, confidence, reasoning)",
    );
    expect((await registry.evaluate(greeting, context(judge))).error).toBe('the judge\'s answer does not match the schema: judgment: expected one of "yes", "no", found "maybe"');
  });

  it('falls back to a forced tool call for a model that refuses the json_schema response format, and remembers it', async () => {
    const judge = await start((request) => {
      const body = request.body as Record<string, unknown>;
      if (body.response_format !== undefined) {
        return { status: 400, body: { error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error', param: 'response_format', code: null } } };
      }
      return { toolCalls: [{ name: 'submit_judgment', arguments: { judgment: 'yes', confidence: 0.8, reasoning: 'Greeted back.' } }], usage: { prompt_tokens: 50, completion_tokens: 10 } };
    });
    const llm = { model: 'tool-only-model' };
    const report = await registry.evaluate(greeting, context(judge, {}, llm));
    expect(report).toMatchObject({ success: true });
    const [refused, fallback] = judge.bodies();
    expect(refused?.response_format).toBeDefined();
    expect(fallback).toMatchObject({
      model: 'tool-only-model',
      tool_choice: { type: 'function', function: { name: 'submit_judgment' } },
      tools: [{ type: 'function', function: { name: 'submit_judgment', strict: true } }],
    });
    expect(fallback?.response_format).toBeUndefined();
    await registry.evaluate({ ...greeting, prompt: 'Was it polite?' }, context(judge, {}, llm));
    expect(judge.server.requests).toHaveLength(3);
    expect(judge.bodies()[2]?.tools).toBeDefined();
  });

  it('uses a tool call from the start with structuredOutput "tool", and errors when the model writes text instead', async () => {
    const judge = await start(['{"judgment":"yes"}']);
    const report = await registry.evaluate(greeting, context(judge, {}, { structuredOutput: 'tool' }));
    expect(judge.bodies()[0]?.tools).toBeDefined();
    expect(report.error).toBe('the judge did not call the submit_judgment tool (it wrote: "{\\"judgment\\":\\"yes\\"}")');
  });

  it('reports an HTTP failure as an evaluation error', async () => {
    const judge = await start([{ status: 500 }]);
    const report = await registry.evaluate(greeting, context(judge));
    expect(report.success).toBe(false);
    expect(report.error).toMatch(/^judge request to http:\/\/127\.0\.0\.1:\d+\/v1 \(model judge-model\) failed: HTTP 500/);
  });

  it('caches answers on disk, bypasses the cache for repeats and with noCache', async () => {
    const judge = await start([yes(), no(), no()]);
    const first = await registry.evaluate(greeting, context(judge));
    expect(first.success).toBe(true);
    expect(await cacheFiles(judge.cache.path)).toHaveLength(1);

    const cached = await registry.evaluate(greeting, context(judge));
    expect(judge.server.requests).toHaveLength(1);
    expect(cached.success).toBe(true);
    expect(cached.details).toMatchObject({ cacheHits: 1, usage: { totalTokens: 0 } });

    // A repeat of the run is an independent sample: it asks again and leaves the cached answer alone.
    const repeat = await registry.evaluate(greeting, context(judge, {}, { repeatIndex: 1 }));
    expect(repeat.success).toBe(false);
    expect(judge.server.requests).toHaveLength(2);
    expect((await registry.evaluate(greeting, context(judge))).success).toBe(true);

    const uncached = await registry.evaluate(greeting, context(judge, {}, { noCache: true }));
    expect(uncached.success).toBe(false);
    expect(judge.server.requests).toHaveLength(3);
  });

  it('shows a cache hit to onCachedAnswer as the exchange a miss would make: the same request body, the cached answer', async () => {
    const judge = await start([yes()]);
    await registry.evaluate(greeting, context(judge));
    const [sent] = judge.bodies();
    const hits: CachedJudgeExchange[] = [];
    const cached = await registry.evaluate(greeting, context(judge, {}, { onCachedAnswer: (hit) => hits.push(hit) }));
    expect(cached.success).toBe(true);
    expect(judge.server.requests).toHaveLength(1);
    expect(hits).toHaveLength(1);
    expect(hits[0]?.endpoint).toBe('/chat/completions');
    expect(hits[0]?.body).toEqual(sent);
    const completion = JSON.parse(hits[0]?.responseBody ?? '{}') as { choices: { message: { content: string } }[]; usage: { total_tokens: number } };
    expect(JSON.parse(completion.choices[0]?.message.content ?? '{}')).toMatchObject({ judgment: 'yes' });
    expect(completion.usage.total_tokens).toBe(0);
  });

  it('misses the cache when the material, model or temperature changes', async () => {
    const judge = await start([yes(), yes(), yes(), yes()]);
    await registry.evaluate(greeting, context(judge));
    await registry.evaluate(greeting, context(judge, { response: 'Go away.' }));
    await registry.evaluate({ ...greeting, temperature: 0.5 }, context(judge));
    await registry.evaluate({ ...greeting, model: 'other-model' }, context(judge));
    expect(judge.server.requests).toHaveLength(4);
    expect(await cacheFiles(judge.cache.path)).toHaveLength(4);
  });

  it('sends the model of model_type and the temperature', async () => {
    const judge = await start([yes(), yes()]);
    const env = { AGENTBENCH_JUDGE_MODEL_LARGE: 'large-model' };
    await registry.evaluate({ ...greeting, model_type: 'TEXT_LARGE', temperature: 0.3 }, context(judge, {}, { env }));
    await registry.evaluate({ ...greeting, model_type: 'TEXT_SMALL' }, context(judge, {}, { env }));
    expect(judge.bodies().map((body) => [body.model, body.temperature])).toEqual([
      ['large-model', 0.3],
      // No small model configured: the base judge model.
      ['judge-model', 0],
    ]);
  });

  it('judges capabilities one by one and reports each', async () => {
    const judge = await start((request) => {
      const text = lastUserText(request) ?? '';
      if (text.includes('Provides a friendly response')) return no(0.7);
      return yes();
    });
    const report = await registry.evaluate(
      { ...greeting, capabilities: ['Responds to the greeting', 'Provides a friendly response'] },
      context(judge),
    );
    expect(judge.server.requests).toHaveLength(3);
    expect(report.success).toBe(false);
    expect(report.score).toBeCloseTo(2 / 3);
    expect(report.message).toBe('LLM judge: yes (confidence 0.9), expected judgment "yes"; capabilities 1/2 (missing: "Provides a friendly response")');
    expect((report.details as LlmJudgeDetails).capabilities).toEqual([
      { capability: 'Responds to the greeting', success: true, reasoning: 'It did.' },
      { capability: 'Provides a friendly response', success: false, reasoning: 'It did not.' },
    ]);
  });

  it('grades PASS / PARTIAL / FAIL against the pass level', async () => {
    const partial = jsonReply({ verdict: 'PARTIAL', confidence: 0.8, reasoning: 'Half done.' });
    const judge = await start([partial, partial]);
    const lenient = await registry.evaluate({ type: 'llm_judge', prompt: 'Was the task done?', pass_level: 'PARTIAL' }, context(judge, {}, { noCache: true }));
    expect(lenient).toMatchObject({ success: true, score: 0.5, message: 'LLM judge: PARTIAL (confidence 0.8), expected pass level PARTIAL' });
    const strict = await registry.evaluate({ type: 'llm_judge', prompt: 'Was the task done?', scale: 'levels' }, context(judge, {}, { noCache: true }));
    expect(strict).toMatchObject({ success: false, score: 0.5 });
    expect(judge.bodies()[0]).toMatchObject({ response_format: { json_schema: { name: 'verdict', schema: { required: ['verdict', 'confidence', 'reasoning'] } } } });
  });

  it('decides by strict majority with several judges, each with its own model', async () => {
    const judge = await start([yes(), no(), yes(), yes(), no()]);
    const panel = await registry.evaluate({ ...greeting, judges: 3 }, context(judge));
    expect(panel).toMatchObject({ success: true, message: 'LLM judge: yes (confidence 0.9), expected judgment "yes"; 2 of 3 judges passed it' });
    const tie = await registry.evaluate({ ...greeting, judges: [{ model: 'model-a' }, { model: 'model-b', temperature: 0.7 }] }, context(judge));
    expect(tie.success).toBe(false);
    expect(judge.bodies().slice(3).map((body) => [body.model, body.temperature])).toEqual([
      ['model-a', 0],
      ['model-b', 0.7],
    ]);
  });

  it('compares a confidence expectation with the belief in "yes"', async () => {
    const judge = await start([yes(0.85), no(0.85), no(0.9)]);
    const uncached = context(judge, {}, { noCache: true });
    expect((await registry.evaluate({ ...greeting, expected: '0.8+' }, uncached)).success).toBe(true);
    expect((await registry.evaluate({ ...greeting, expected: '0.8+' }, uncached)).success).toBe(false);
    expect((await registry.evaluate({ ...greeting, expected: '0.3-' }, uncached)).success).toBe(true);
  });

  it('holds the answer to a custom json_schema, strictly', async () => {
    const schema = {
      type: 'object',
      properties: {
        judgment: { type: 'string', enum: ['yes', 'no'] },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        reasoning: { type: 'string' },
        suggestions: { type: 'string' },
      },
      required: ['judgment', 'confidence', 'reasoning', 'suggestions'],
    };
    const judge = await start([
      jsonReply({ judgment: 'yes', confidence: 0.8, reasoning: 'ok', suggestions: 'none' }),
      jsonReply({ judgment: 'yes', confidence: 0.8, reasoning: 'ok' }),
    ]);
    const evaluation = { type: 'llm_judge', prompt: 'Is this output well-structured and clear?', expected: '0.7+', json_schema: schema };
    const uncached = context(judge, {}, { noCache: true });
    expect((await registry.evaluate(evaluation, uncached)).success).toBe(true);
    expect((await registry.evaluate(evaluation, uncached)).error).toBe("the judge's answer does not match the schema: suggestions: required field is missing");
    expect(judge.bodies()[0]).toMatchObject({ response_format: { json_schema: { strict: true, schema: { additionalProperties: false } } } });
  });
});

describe('llm_judge parameters', () => {
  const problems = (entry: Record<string, unknown>) =>
    registry.validate([entry], { path: 'run[0].evaluations' }).map((issue) => `${issue.path}: ${issue.message}`);

  it('accepts the forms of the real scenario files', () => {
    expect(problems({ ...greeting, model_type: 'TEXT_REASONING_LARGE', temperature: 0.3, capabilities: ['a', 'b'] })).toEqual([]);
    expect(problems({ type: 'llm_judge', prompt: 'p', expected: '0.8+' })).toEqual([]);
  });

  it('rejects a missing expected answer, an expected answer the schema cannot give, and bad numbers', () => {
    expect(problems({ type: 'llm_judge', prompt: 'p' })).toEqual([
      'run[0].evaluations[0].expected: expected an `expected` answer such as "yes" (or scale: levels with pass_level)',
    ]);
    expect(problems({ ...greeting, expected: 'maybe', json_schema: { type: 'object', properties: { judgment: { type: 'string', enum: ['yes', 'no'] } }, required: ['judgment'] } })).toEqual([
      'run[0].evaluations[0].json_schema: expected "maybe" is not one of the schema\'s judgments (yes, no), so it could never pass',
    ]);
    expect(problems({ ...greeting, expected: '1.5+' })).toEqual(['run[0].evaluations[0].expected: expected a confidence from 0 to 1 before "+", found "1.5+"']);
    expect(problems({ ...greeting, temperature: 3 })).toEqual(['run[0].evaluations[0].temperature: expected a number from 0 to 2, found 3']);
    expect(problems({ ...greeting, judges: 10 })).toEqual(['run[0].evaluations[0].judges: expected at most 9 judges, found 10']);
  });

  it('rejects an unknown model type, unsupported schema keywords and mixing expected with levels', () => {
    expect(problems({ ...greeting, model_type: 'TEXT_HUGE' })[0]).toMatch(/^run\[0\]\.evaluations\[0\]\.model_type: expected a model type: TEXT_SMALL, TEXT_LARGE/);
    expect(problems({ ...greeting, json_schema: { type: 'object', properties: { judgment: { type: 'string', oneOf: [] } }, required: ['judgment'] } })).toEqual([
      'run[0].evaluations[0].json_schema: json_schema.properties.judgment: keyword "oneOf" is not supported (supported: type, enum, const, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, properties, required, additionalProperties, items, minItems, maxItems)',
    ]);
    expect(problems({ ...greeting, pass_level: 'PARTIAL' })).toEqual([
      'run[0].evaluations[0].expected: with scale "levels" the verdict is compared with `pass_level`, not `expected`: remove `expected`',
    ]);
    expect(problems({ ...greeting, scale: 'yes_no', pass_level: 'PASS' })).toEqual(['run[0].evaluations[0].pass_level: `pass_level` needs scale "levels" (PASS / PARTIAL / FAIL verdicts)']);
  });
});
