import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ScenarioSchema } from './scenario-schema.js';

function baseScenario(): Record<string, any> {
  return {
    name: 'Scenario',
    description: 'Checks things',
    environment: { type: 'local' },
    run: [{ input: 'hello', evaluations: [{ type: 'string_contains', value: 'hello' }] }],
    judgment: { strategy: 'all_pass' },
  };
}

function issuePaths(input: unknown): string[] {
  const result = v.safeParse(ScenarioSchema, input);
  if (result.success) return [];
  return result.issues.map((issue) => v.getDotPath(issue) ?? '');
}

describe('ScenarioSchema', () => {
  it('accepts the smallest scenario and applies defaults', () => {
    const scenario = baseScenario();
    delete scenario.run[0].evaluations;
    const output = v.parse(ScenarioSchema, scenario);
    expect(output.plugins).toEqual([]);
    expect(output.run[0]?.evaluations).toEqual([]);
    expect(output.judgment).toEqual({ strategy: 'all_pass', allow_empty: false });
    expect(output.setup).toBeUndefined();
  });

  it('requires name, description, environment, run and judgment, and rejects unknown keys', () => {
    expect(issuePaths({ character: {} })).toEqual(['name', 'description', 'environment', 'run', 'judgment', 'character']);
  });

  it('requires at least one run step with input or code', () => {
    expect(issuePaths({ ...baseScenario(), run: [] })).toEqual(['run']);
    expect(issuePaths({ ...baseScenario(), run: [{ name: 'nothing' }] })).toEqual(['run.0']);
    expect(issuePaths({ ...baseScenario(), run: [{ lang: 'bash', code: 'echo hi' }] })).toEqual([]);
    expect(issuePaths({ ...baseScenario(), run: [{ input: 'x', shell: true }] })).toEqual(['run.0.shell']);
  });

  it('keeps evaluation parameters as they are and checks only the common keys', () => {
    const scenario = baseScenario();
    scenario.run[0].evaluations = [{ type: 'llm_judge', prompt: 'ok?', expected: 'yes', capabilities: ['a'], description: 'd', negate: true, weight: 2 }];
    const output = v.parse(ScenarioSchema, scenario);
    expect(output.run[0]?.evaluations[0]).toEqual(scenario.run[0].evaluations[0]);
    scenario.run[0].evaluations = [{ value: 'x' }, { type: '' }, { type: 'x', weight: -1 }, { type: 'x', negate: 'yes' }, { type: 'x', description: 3 }];
    expect(issuePaths(scenario)).toEqual([
      'run.0.evaluations.0.type',
      'run.0.evaluations.1.type',
      'run.0.evaluations.2.weight',
      'run.0.evaluations.3.negate',
      'run.0.evaluations.4.description',
    ]);
  });

  it('accepts plugins as names or configurations, with enabled defaulting to true', () => {
    const output = v.parse(ScenarioSchema, {
      ...baseScenario(),
      plugins: ['@elizaos/plugin-sql', { name: '@elizaos/plugin-openai', version: '1.0.0', config: { model: 'gpt-4' } }, { name: 'off', enabled: false }],
    });
    expect(output.plugins).toEqual([
      '@elizaos/plugin-sql',
      { name: '@elizaos/plugin-openai', version: '1.0.0', enabled: true, config: { model: 'gpt-4' } },
      { name: 'off', enabled: false },
    ]);
    // A union reports at the entry; the loader digs into the matching option (see valibot-issues tests).
    expect(issuePaths({ ...baseScenario(), plugins: [{ name: 'x', extra: 1 }] })).toEqual(['plugins.0']);
    expect(issuePaths({ ...baseScenario(), plugins: [{ enabled: true }] })).toEqual(['plugins.0']);
    expect(issuePaths({ ...baseScenario(), plugins: [5] })).toEqual(['plugins.0']);
    expect(issuePaths({ ...baseScenario(), plugins: [''] })).toEqual(['plugins.0']);
  });

  it('accepts any environment type with optional docker fields', () => {
    expect(issuePaths({ ...baseScenario(), environment: { type: 'e2b' } })).toEqual([]);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'docker', image: 'python:3.12', network: 'none', workdir: '/work' } })).toEqual([]);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'docker', network: 'host' } })).toEqual(['environment.network']);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'docker', workdir: 'rel' } })).toEqual(['environment.workdir']);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'docker', runtime: 'runsc' } })).toEqual([]);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'docker', runtime: 'gvisor please' } })).toEqual(['environment.runtime']);
    expect(issuePaths({ ...baseScenario(), environment: { type: '' } })).toEqual(['environment.type']);
    expect(issuePaths({ ...baseScenario(), environment: { type: 'local', memory: 1 } })).toEqual(['environment.memory']);
  });

  it('moves an older environment.setup block to the top level, and rejects both at once', () => {
    const scenario = { ...baseScenario(), environment: { type: 'e2b', setup: { virtual_fs: { 'input.txt': 'hi' } } } };
    const output = v.parse(ScenarioSchema, scenario);
    expect(output.setup).toEqual({ virtual_fs: { 'input.txt': 'hi' } });
    expect(output.environment).toEqual({ type: 'e2b' });
    expect(issuePaths({ ...scenario, setup: { virtual_fs: {} } })).toEqual(['environment.setup']);
  });

  it('checks virtual files and database seeds', () => {
    const setup = {
      virtual_fs: { 'notes/readme.txt': 'hello' },
      database: { tables: { users: { columns: { id: 'INTEGER', name: 'TEXT' }, rows: [{ id: 1, name: 'a' }] } }, sql: ['CREATE INDEX i ON users(id)'] },
    };
    expect(v.parse(ScenarioSchema, { ...baseScenario(), setup }).setup).toEqual(setup);
    expect(issuePaths({ ...baseScenario(), setup: { virtual_fs: { '/etc/passwd': 'x' } } })).toEqual(['setup.virtual_fs./etc/passwd']);
    expect(issuePaths({ ...baseScenario(), setup: { virtual_fs: { '../out.txt': 'x' } } })).toEqual(['setup.virtual_fs.../out.txt']);
    expect(issuePaths({ ...baseScenario(), setup: { virtual_fs: { 'a.txt': 3 } } })).toEqual(['setup.virtual_fs.a.txt']);
    expect(issuePaths({ ...baseScenario(), setup: { database: { tables: { users: { columns: {} } } } } })).toEqual(['setup.database.tables.users.rows']);
    expect(issuePaths({ ...baseScenario(), setup: { database: { tables: { 'bad name': { rows: [] } } } } })).toEqual(['setup.database.tables.bad name']);
    expect(issuePaths({ ...baseScenario(), setup: { database: { rows: [] } } })).toEqual(['setup.database.rows']);
  });

  describe('judgment', () => {
    it.each(['all_pass', 'any_pass'])('accepts strategy %s without threshold', (strategy) => {
      expect(issuePaths({ ...baseScenario(), judgment: { strategy } })).toEqual([]);
    });

    it('requires a threshold between 0 and 1 for strategy threshold, and only there', () => {
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'threshold' } })).toEqual(['judgment.threshold']);
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'threshold', threshold: 0.75 } })).toEqual([]);
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'threshold', threshold: 1.5 } })).toEqual(['judgment.threshold']);
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'threshold', threshold: -0.1 } })).toEqual(['judgment.threshold']);
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'all_pass', threshold: 0.5 } })).toEqual(['judgment.threshold']);
    });

    it('checks strategy and allow_empty', () => {
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'most_pass' } })).toEqual(['judgment.strategy']);
      expect(issuePaths({ ...baseScenario(), judgment: { strategy: 'all_pass', allow_empty: 'yes' } })).toEqual(['judgment.allow_empty']);
      expect(v.parse(ScenarioSchema, { ...baseScenario(), judgment: { strategy: 'all_pass', allow_empty: true } }).judgment.allow_empty).toBe(true);
    });
  });
});

describe('ScenarioSchema agent block', () => {
  it('accepts each kind of agent under test', () => {
    for (const agent of [
      { type: 'llm', model: 'openai/gpt-4o-mini', max_tool_rounds: 5 },
      { type: 'http', base_url: 'http://127.0.0.1:8080/v1', api_key_env: 'MY_KEY' },
      { type: 'command', command: 'sh agents/echo-agent.sh', timeout_ms: 1000 },
    ]) {
      expect(v.safeParse(ScenarioSchema, { ...baseScenario(), agent }).success).toBe(true);
    }
  });

  it('rejects an unknown agent type, a missing command and an unknown key, naming the field', () => {
    expect(issuePaths({ ...baseScenario(), agent: { type: 'telepathy' } })).toContain('agent.type');
    expect(issuePaths({ ...baseScenario(), agent: { type: 'command' } })).toContain('agent.command');
    expect(issuePaths({ ...baseScenario(), agent: { type: 'http', base_url: 'http://x/v1', colour: 'red' } })).toContain('agent.colour');
  });
});
