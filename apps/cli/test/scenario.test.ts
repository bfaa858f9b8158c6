import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixturePath, sharedFixturesSkipReason } from '../../../test-support/shared-fixtures.js';
import { runCli } from './run-cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scenarios = path.join(root, 'fixtures/scenarios');
// Real ElizaOS files, kept beside the repository (see ../shared/fixtures/README.md): their tests skip, visibly, without them
// (and fail under AGENTBENCH_REQUIRE_SHARED_FIXTURES=1).
const eliza = sharedFixturePath('eliza-scenarios');
const hasEliza = sharedFixturesSkipReason('scenario.test.ts', 'eliza-scenarios') === undefined;

describe('ab scenario run', () => {
  let server: FakeLlmServer;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ab-scenario-'));
    server = await startFakeLlmServer({ script: () => 'Hello! Nice to meet you.' });
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('runs a scenario, prints the summary, writes result.json and exits 0 on pass', async () => {
    const envFile = path.join(folder, 'run.env');
    await writeFile(envFile, `AGENTBENCH_AGENT_BASE_URL=${server.url}\nAGENTBENCH_AGENT_MODEL=env-file-model\n`);
    const out = path.join(folder, 'greeting');
    const run = await runCli(['scenario', 'run', path.join(scenarios, 'greeting.scenario.yaml'), '--env-file', envFile, '--out', out, '--seed', '5']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^PASS {2}Greeting {2}\(1\/1 evaluations passed; all_pass; seed 5;/);
    const result = JSON.parse(await readFile(path.join(out, 'result.json'), 'utf8')) as { parameters: { models: { agent: string }; env_file: string } };
    expect(result.parameters.models.agent).toBe('env-file-model');
    expect(result.parameters.env_file).toBe(envFile);
    // The env file was for the run only.
    expect(process.env.AGENTBENCH_AGENT_MODEL).toBeUndefined();
  });

  it.skipIf(!hasEliza)('exits 1 and lists the failed evaluations when the scenario fails', async () => {
    const run = await runCli(['scenario', 'run', path.join(eliza, 'failing-test.scenario.yaml'), '--out', path.join(folder, 'failing')]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}Failing Test Scenario/);
    expect(run.stdout).toContain('Failed evaluations:\n    run[0] string_contains (Verify output contains \'Missing\' (this should fail)): response does not contain "Missing"');
  });

  it.skipIf(!hasEliza)('runs a real ElizaOS file that needs no plugin and passes', async () => {
    const run = await runCli(['scenario', 'run', path.join(eliza, 'fully-passing.scenario.yaml'), '--out', path.join(folder, 'fully-passing')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^PASS/);
  });

  it('uses the agent the scenario file names, and --agent overrides it', async () => {
    const file = path.join(scenarios, 'command-agent.scenario.yaml');
    const plan = await runCli(['scenario', 'run', file, '--dry-run']);
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toMatch(/agent: command \(scenario\)/);
    const run = await runCli(['scenario', 'run', file, '--out', path.join(folder, 'command-agent')]);
    expect(run.stdout).toMatch(/^PASS/);
    expect(run.exitCode).toBe(0);
    const overridden = await runCli(['scenario', 'run', file, '--dry-run', '--agent', 'command:echo hi']);
    expect(overridden.stdout).toMatch(/agent: command \(--agent\)/);
  });

  it.skipIf(!hasEliza)('dry-runs a real file with plugins and a provider that are not installed: plan, exit 0', async () => {
    const requestsBefore = server.requests.length;
    const run = await runCli(['scenario', 'run', path.join(eliza, 'advanced-mocking-test.scenario.yaml'), '--dry-run']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('provider: e2b [not_installed] not installed: needs @elizaos/plugin-e2b');
    expect(run.stdout).toContain('@elizaos/plugin-github: not installed');
    expect(run.stdout).toContain('evaluate: string_contains [built-in]');
    expect(run.stdout).toContain('VALID (not runnable here');
    expect(server.requests).toHaveLength(requestsBefore);
  });

  it.skipIf(!hasEliza)('fails a real run on a provider that is not installed, naming the plugin', async () => {
    const run = await runCli(['scenario', 'run', path.join(eliza, 'e2b-test.scenario.yaml')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('environment.type "e2b" needs the provider plugin @elizaos/plugin-e2b, which is not installed');
  });

  it('answers a matrix file, by its name or by its keys, with the command that runs it: one line, exit 1', async () => {
    const matrix = path.join(scenarios, 'greeting.matrix.yaml');
    const byName = await runCli(['scenario', 'run', matrix]);
    expect(byName.exitCode).toBe(1);
    expect(byName.stderr).toBe(`ab: ${matrix} is a matrix file: run it with \`ab scenario matrix ${matrix}\`\n`);
    const renamed = path.join(folder, 'greeting-grid.yaml');
    await writeFile(renamed, (await readFile(matrix, 'utf8')).replace('base_scenario: greeting.scenario.yaml', `base_scenario: ${path.join(scenarios, 'greeting.scenario.yaml')}`));
    const byKeys = await runCli(['scenario', 'run', renamed, '--dry-run']);
    expect(byKeys.exitCode).toBe(1);
    expect(byKeys.stderr).toBe(`ab: ${renamed} is a matrix file: run it with \`ab scenario matrix ${renamed}\`\n`);
  });

  it.skipIf(!hasEliza)('exits at once with file, line and field on a schema error', async () => {
    const run = await runCli(['scenario', 'run', path.join(eliza, 'invalid-missing-fields.scenario.yaml')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/invalid-missing-fields\.scenario\.yaml:\d+:\d+: .*environment/);
    expect(run.stderr).toContain('judgment');
  });
});

describe('ab scenario matrix', () => {
  let server: FakeLlmServer;
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ab-matrix-'));
    server = await startFakeLlmServer({ script: () => 'Hello! Nice to meet you.' });
  });
  afterAll(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('runs the combinations with progress and prints the aggregate with pass^k', async () => {
    const envFile = path.join(folder, 'run.env');
    await writeFile(envFile, `AGENTBENCH_AGENT_BASE_URL=${server.url}\nAGENTBENCH_AGENT_MODEL=fake\n`);
    const run = await runCli(['scenario', 'matrix', path.join(scenarios, 'greeting.matrix.yaml'), '--env-file', envFile, '--parallel', '2', '--filter', 'Good morning', '--out', folder]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('matrix: 2 combinations, 4 runs');
    expect(run.stderr).toMatch(/\[4\/4\] combination-00\d r\d (PASS|FAIL)/);
    expect(run.stdout).toContain('overall:  50.0%    2/4    pass^k  50.0%');
    const summary = JSON.parse(await readFile(path.join(folder, 'summary.json'), 'utf8')) as { runs: unknown[] };
    expect(summary.runs).toHaveLength(4);
  });

  it('dry-runs: lists combinations and the plan', async () => {
    const run = await runCli(['scenario', 'matrix', path.join(scenarios, 'greeting.matrix.yaml'), '--dry-run']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('MATRIX DRY RUN  Greeting matrix: 4 combinations x 2 runs = 8 runs');
    expect(run.stdout).toContain('combination-004  run[0].input="Good morning"; run[0].evaluations[0].value="Goodbye"');
  });
});
