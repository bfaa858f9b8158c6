import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sharedFixturesSkipReason } from '../../../../test-support/shared-fixtures.js';
import { elizaScenariosDir, pythonTasksDir, validScenarioYaml, validTaskYaml } from '../../test/helpers/fixtures.js';
import { jsonSchemaErrors, metaSchemaProblems } from '../../test/helpers/json-schema-check.js';
import { matrixJsonSchema, scenarioJsonSchema, taskJsonSchema } from './json-schemas.js';

type Schema = Record<string, any>;

/** The tests on real files: skipped visibly without the shared fixtures, failed under AGENTBENCH_REQUIRE_SHARED_FIXTURES=1. */
const skipRealFiles = sharedFixturesSkipReason('json-schemas.test.ts', 'eliza-scenarios', 'agentbench-py-tasks') !== undefined;

const schemas = [
  ['task', taskJsonSchema, 'https://agentbench.dev/schemas/task-1.0.json'],
  ['scenario', scenarioJsonSchema, 'https://agentbench.dev/schemas/scenario.json'],
  ['matrix', matrixJsonSchema, 'https://agentbench.dev/schemas/matrix.json'],
] as const;

const INVALID_SCENARIOS = new Set(['invalid-missing-fields.scenario.yaml', 'enhanced-demo.scenario.yaml']);

describe.each(schemas)('%s JSON Schema', (_kind, build, id) => {
  it('is a well-formed draft-07 schema with $id and title, and plain JSON', () => {
    const schema = build() as Schema;
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.$id).toBe(id);
    expect(schema.title).toMatch(/^AgentBench /);
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(metaSchemaProblems(schema)).toEqual([]);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe('taskJsonSchema', () => {
  const schema = taskJsonSchema() as Schema;

  it('accepts a valid task and rejects unknown keys, a wrong version and a wrong type', () => {
    const task = parse(validTaskYaml) as Schema;
    expect(jsonSchemaErrors(schema, task)).toEqual([]);
    expect(jsonSchemaErrors(schema, { ...task, extra: 1 })).toEqual(['$.extra: not allowed']);
    expect(jsonSchemaErrors(schema, { ...task, task_spec_version: '2.0' })).toEqual(['$.task_spec_version: not in enum']);
    expect(jsonSchemaErrors(schema, { ...task, environment: { ...task.environment, timeout_sec: 'x' } })).toEqual([
      '$.environment.timeout_sec: expected integer, found string',
    ]);
    expect(jsonSchemaErrors(schema, { ...task, environment: { ...task.environment, runtime: 'runsc' } })).toEqual([]);
    expect(jsonSchemaErrors(schema, { ...task, environment: { ...task.environment, runtime: 'run sc' } })).toHaveLength(1);
  });

  it('marks regex fields, describes fields and shows defaults for editors', () => {
    expect(schema.properties.validation.properties.expected_failure_regex).toEqual({ type: 'string', format: 'regex' });
    expect(schema.properties.validation.properties.enforce_clean_setup.default).toBe(true);
    expect(schema.properties.labels.default).toEqual([]);
    expect(schema.properties.environment.properties.max_output_bytes).toMatchObject({ type: 'integer', minimum: 1, description: expect.stringMatching(/10 MiB/) });
    expect(schema.properties.environment.required).not.toContain('max_output_bytes');
    expect(schema.properties.environment.properties.runtime).toMatchObject({ type: 'string', pattern: expect.any(String), description: expect.stringMatching(/gVisor/) });
    expect(schema.properties.environment.required).not.toContain('runtime');
    expect(schema.properties.repo.properties.url.description).toMatch(/relative|local path/);
    expect(schema.required).toEqual(['task_spec_version', 'id', 'suite', 'repo', 'environment', 'run']);
  });

  it('lists the named-test fields of evaluation: pass_to_pass and results', () => {
    const evaluation = schema.properties.evaluation.properties;
    expect(evaluation.pass_to_pass).toMatchObject({ type: 'array', description: expect.stringMatching(/PASS_TO_PASS/) });
    expect(evaluation.results).toMatchObject({ type: 'object', required: ['format', 'path'] });
    const task = parse(validTaskYaml) as Schema;
    expect(jsonSchemaErrors(schema, { ...task, evaluation: { pass_to_pass: ['t::a'], results: { format: 'junit', path: 'r.xml' } } })).toEqual([]);
    expect(jsonSchemaErrors(schema, { ...task, evaluation: { results: { format: 'tap', path: 'r.xml' } } })).toHaveLength(1);
  });

  it.skipIf(skipRealFiles)('accepts every real task file', () => {
    const files = ['custom-dev', 'swe-bench-lite-demo'].flatMap((suite) =>
      readdirSync(path.join(pythonTasksDir, suite)).map((task) => path.join(pythonTasksDir, suite, task, 'task.yaml')),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect([file, jsonSchemaErrors(schema, parse(readFileSync(file, 'utf8')))]).toEqual([file, []]);
  });
});

describe('scenarioJsonSchema', () => {
  const schema = scenarioJsonSchema() as Schema;

  it('accepts a valid scenario and rejects a missing judgment', () => {
    const scenario = parse(validScenarioYaml) as Schema;
    expect(jsonSchemaErrors(schema, scenario)).toEqual([]);
    const { judgment: _judgment, ...withoutJudgment } = scenario;
    expect(jsonSchemaErrors(schema, withoutJudgment)).toEqual(['$.judgment: required']);
  });

  it('lets evaluation entries carry their parameters', () => {
    const evaluation = schema.properties.run.items.properties.evaluations.items;
    expect(evaluation.required).toEqual(['type']);
    expect(evaluation.additionalProperties).not.toBe(false);
  });

  it('describes the per-entry evaluation timeout', () => {
    const evaluation = schema.properties.run.items.properties.evaluations.items as { properties: Record<string, { type?: string; minimum?: number; maximum?: number; description?: string }> };
    expect(evaluation.properties['timeout_ms']).toMatchObject({ type: 'integer', minimum: 1, maximum: 3_600_000 });
    expect(evaluation.properties['timeout_ms']?.description).toMatch(/Default 60000 for plugin evaluators/);
    const withTimeout = parse(validScenarioYaml.replace('type: string_contains', 'type: string_contains\n        timeout_ms: 0')) as Schema;
    expect(jsonSchemaErrors(schema, withTimeout)).toEqual(['$.run[0].evaluations[0].timeout_ms: below minimum']);
  });

  it.skipIf(skipRealFiles)('accepts the real scenario files and rejects the two invalid ones', () => {
    const files = readdirSync(elizaScenariosDir).filter((name) => name.endsWith('.scenario.yaml'));
    for (const name of files) {
      const errors = jsonSchemaErrors(schema, parse(readFileSync(path.join(elizaScenariosDir, name), 'utf8')));
      expect([name, errors.length > 0]).toEqual([name, INVALID_SCENARIOS.has(name)]);
    }
  });
});

describe('matrixJsonSchema', () => {
  it.skipIf(skipRealFiles)('accepts the real matrix files', () => {
    const schema = matrixJsonSchema() as Schema;
    const files = readdirSync(elizaScenariosDir).filter((name) => name.endsWith('.matrix.yaml'));
    expect(files.length).toBe(2);
    for (const name of files) expect([name, jsonSchemaErrors(schema, parse(readFileSync(path.join(elizaScenariosDir, name), 'utf8')))]).toEqual([name, []]);
    expect(jsonSchemaErrors(schema, { name: 'm', base_scenario: 'b', matrix: [] })).toEqual(['$.matrix: too few items']);
  });
});
