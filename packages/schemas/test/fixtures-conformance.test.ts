// Conformance with real files from comparable projects (../shared/fixtures, see its README.md).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatIssue,
  loadMatrix,
  loadScenario,
  loadSuite,
  validateFile,
  validateTaskFile,
} from '../src/index.js';
import { validateScenarioFile } from '../src/loading/load-scenario.js';
import { casesOrSkipped, sharedFixturesSkipReason } from '../../../test-support/shared-fixtures.js';
import { elizaScenariosDir, pythonTasksDir } from './helpers/fixtures.js';

// Skipped with the reason printed (and each it.each showing one skipped case) without them; failed under
// AGENTBENCH_REQUIRE_SHARED_FIXTURES=1.
const skip = sharedFixturesSkipReason('fixtures-conformance.test.ts', 'eliza-scenarios', 'agentbench-py-tasks');

/** Files meant to fail, with exactly the fields their errors must name. */
const EXPECTED_FAILURES: Record<string, string[]> = {
  'invalid-missing-fields.scenario.yaml': ['environment', 'run', 'judgment'],
  'enhanced-demo.scenario.yaml': ['environment', 'judgment', 'character'],
};

describe.skipIf(skip !== undefined)('eliza scenario fixtures', () => {
  const names = skip === undefined ? readdirSync(elizaScenariosDir).sort() : [];
  const scenarioNames = names.filter((name) => name.endsWith('.scenario.yaml'));
  const matrixNames = names.filter((name) => name.endsWith('.matrix.yaml'));

  it('has the files the README describes', () => {
    expect(names.length).toBe(34);
    expect(matrixNames).toEqual(['github-issue-analysis.matrix.yaml', 'simple-test.matrix.yaml']);
  });

  it.each(casesOrSkipped(scenarioNames.filter((name) => !(name in EXPECTED_FAILURES)), skip))('loads %s', async (name) => {
    const loaded = await loadScenario(path.join(elizaScenariosDir, name));
    expect(loaded.scenario.run.length).toBeGreaterThan(0);
    expect(loaded.warnings.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  it.each(Object.entries(EXPECTED_FAILURES))('rejects %s naming exactly %j', async (name, fields) => {
    const file = path.join(elizaScenariosDir, name);
    const result = await validateScenarioFile(file);
    expect(result.success).toBe(false);
    expect(result.issues.map((issue) => issue.path).sort()).toEqual([...fields].sort());
    for (const issue of result.issues) expect(formatIssue(issue)).toMatch(new RegExp(`^${file}:\\d+:\\d+: ${issue.path}: `));
  });

  it('names the unknown character block of enhanced-demo at its line', async () => {
    const file = path.join(elizaScenariosDir, 'enhanced-demo.scenario.yaml');
    const result = await validateScenarioFile(file);
    expect(result.issues.find((issue) => issue.path === 'character')).toMatchObject({ line: 4, column: 1, message: expect.stringMatching(/^unknown field "character"/) });
  });

  it.each(casesOrSkipped(matrixNames, skip))('loads matrix %s and reports its missing base scenario clearly', async (name) => {
    const file = path.join(elizaScenariosDir, name);
    const loaded = await loadMatrix(file);
    expect(loaded.matrix.matrix.length).toBeGreaterThan(0);
    expect(loaded.baseScenario).toBeUndefined();
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatchObject({ path: 'base_scenario', severity: 'warning' });
    expect(loaded.warnings[0]?.message).toContain(path.join(elizaScenariosDir, 'src/commands/scenario/examples/test-github-issues.scenario.yaml'));
  });

  it('validates every file by kind through validateFile', async () => {
    for (const name of names) {
      const report = await validateFile(path.join(elizaScenariosDir, name));
      expect([name, report.kind, report.isValid]).toEqual([name, name.endsWith('.matrix.yaml') ? 'matrix' : 'scenario', !(name in EXPECTED_FAILURES)]);
    }
  });
});

describe.skipIf(skip !== undefined)('agentbench python task fixtures', () => {
  it('validates every task, warning (not failing) about the missing examples/toy_repo', async () => {
    for (const suite of ['custom-dev', 'swe-bench-lite-demo']) {
      for (const task of readdirSync(path.join(pythonTasksDir, suite))) {
        const file = path.join(pythonTasksDir, suite, task, 'task.yaml');
        const result = await validateTaskFile(file);
        expect([file, result.success]).toEqual([file, true]);
        const isLocal = result.value?.isLocalRepo === true;
        expect(result.issues.map((issue) => [issue.severity, issue.path])).toEqual(isLocal ? [['warning', 'repo.url']] : []);
        if (isLocal) expect(result.issues[0]?.message).toContain(path.join(path.dirname(file), 'examples/toy_repo'));
      }
    }
  });

  it('loads the custom-dev suite sorted by id', async () => {
    const suite = await loadSuite(pythonTasksDir, 'custom-dev');
    expect(suite.tasks.map((loaded) => loaded.task.id)).toEqual(['toy_fail_pytest', 'toy_one_liner', 'toy_pass_pytest', 'toy_setup_fail', 'toy_timeout']);
    expect(suite.warnings.every((issue) => issue.severity === 'warning' && issue.path === 'repo.url')).toBe(true);
    const requests = await loadSuite(pythonTasksDir, 'swe-bench-lite-demo');
    expect(requests.tasks[0]?.repoUrl).toBe('https://github.com/psf/requests');
  });
});
