import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FileValidationError } from '@agentbench/schemas';
import { validateScenarioFile } from '../../schemas/src/loading/load-scenario.js';
import { describe, expect, it } from 'vitest';
import { planScenario } from '../src/plan/plan-scenario.js';
import { formatPlan } from '../src/plan/format-plan.js';
import { runScenario } from '../src/run/run-scenario.js';
import { casesOrSkipped, sharedFixturePath, sharedFixturesSkipReason } from '../../../test-support/shared-fixtures.js';

const fixtures = sharedFixturePath('eliza-scenarios');
// Kept beside the repository, not in it (see ../shared/fixtures/README.md): skipped, visibly, without them
// (failed under AGENTBENCH_REQUIRE_SHARED_FIXTURES=1).
const skip = sharedFixturesSkipReason('eliza-fixtures.test.ts', 'eliza-scenarios');
const files = skip === undefined ? (await readdir(fixtures)).filter((name) => name.endsWith('.scenario.yaml')).sort() : [];

describe.skipIf(skip !== undefined)('the real ElizaOS scenario files', () => {
  it('are all here', () => {
    expect(files.length).toBeGreaterThanOrEqual(32);
  });

  for (const name of casesOrSkipped(files, skip)) {
    it(`${name}: dry-runs when it parses, naming provider, agent and evaluators`, async () => {
      const file = path.join(fixtures, name);
      const validation = await validateScenarioFile(file);
      if (!validation.success) {
        // Only the two files meant to be invalid.
        expect(['invalid-missing-fields.scenario.yaml', 'enhanced-demo.scenario.yaml']).toContain(name);
        await expect(planScenario(file)).rejects.toSatisfy((error) => FileValidationError.isInstance(error));
        return;
      }
      const plan = await planScenario(validation.value, { plugins: { configFile: false } });
      expect(plan.errors).toEqual([]);
      const text = formatPlan(plan);
      expect(text).toContain(`provider: ${validation.value.scenario.environment.type}`);
      expect(text).toContain(`agent: ${plan.agent.type}`);
      for (const step of validation.value.scenario.run) for (const evaluation of step.evaluations) expect(text).toContain(`evaluate: ${evaluation.type}`);
      if (validation.value.scenario.environment.type === 'e2b') {
        expect(plan.environment.status).toBe('not_installed');
        expect(plan.missing.join('\n')).toContain('@elizaos/plugin-e2b');
      }
      for (const plugin of plan.plugins) {
        if (plugin.reference.startsWith('@elizaos/')) expect(['not_installed', 'disabled']).toContain(plugin.status);
      }
    });
  }

  it('rejects the invalid files with errors naming the missing fields', async () => {
    const invalid = await validateScenarioFile(path.join(fixtures, 'invalid-missing-fields.scenario.yaml'));
    expect(invalid.success).toBe(false);
    const message = invalid.issues.map((issue) => issue.message + issue.path).join('\n');
    for (const field of ['environment', 'run', 'judgment']) expect(message).toContain(field);
  });

  it('fails a real run of an e2b scenario with a message naming the provider plugin', async () => {
    await expect(runScenario(path.join(fixtures, 'simple-mock-test.scenario.yaml'), { writeResult: false, plugins: { configFile: false } })).rejects.toThrow(
      /environment.type "e2b" needs the provider plugin @elizaos\/plugin-e2b, which is not installed/,
    );
  });

  it('fails a real run of a scenario whose plugin is not installed, naming the plugin', async () => {
    await expect(runScenario(path.join(fixtures, 'minimal-test.scenario.yaml'), { writeResult: false, plugins: { configFile: false } })).rejects.toThrow(
      /@elizaos\/plugin-bootstrap.*not installed/,
    );
  });
});
