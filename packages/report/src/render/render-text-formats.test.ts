import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipUnlessRequired } from '../../../../test-support/skip-unless-required.js';
import { writeAgentRun, writeScenarioRun, writeSuiteRun } from '../../test/helpers/write-artifacts.js';
import type { ReportModel } from '../model/report-model.js';
import { readRunFolders } from '../read/read-run-folders.js';
import { renderJsonReport } from './render-json.js';
import { renderJunitReport } from './render-junit.js';
import { renderMarkdownReport } from './render-markdown.js';

const schema = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/junit/junit.xsd');
const xmllint = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((candidate) => existsSync(candidate));
const xmllintMissing = skipUnlessRequired('render-text-formats.test.ts', xmllint === undefined ? 'xmllint is not installed (apt-get install libxml2-utils, or scripts/setup.sh --with-test-tools)' : undefined, 'AGENTBENCH_REQUIRE_TOOLS');

let root: string;
let model: ReportModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-report-render-'));
  const suite = await writeSuiteRun(path.join(root, 'suite'));
  const agents = path.join(root, 'agents');
  await writeAgentRun(agents, { taskId: 'toy_fail', model: 'fake/model-a', passed: true, folder: 'run-a' });
  await writeAgentRun(agents, { taskId: 'toy_fail', model: 'fake/model-b', passed: false, folder: 'run-b' });
  await writeScenarioRun(path.join(root, 'scenarios'));
  model = await readRunFolders([suite, agents, path.join(root, 'scenarios')], { now: () => new Date('2025-03-02T00:00:00.000Z') });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('renderJsonReport', () => {
  it('summarises overall, per folder and per model, with the Wilson interval and failures by reason', () => {
    const document = JSON.parse(renderJsonReport(model)) as Record<string, any>;
    expect(document.summary.overall).toMatchObject({ attempts: 5, passed: 2, failed: 3, errored: 0, pass_rate: 0.4 });
    expect(document.summary.overall.pass_rate_interval[0]).toBeCloseTo(0.1176, 3);
    expect(document.summary.overall.failures_by_reason).toEqual({ BASELINE_NOT_FAILING: 1, AGENT_GAVE_UP: 1, EVALUATIONS_FAILED: 1 });
    expect(document.summary.by_model.map((group: Record<string, unknown>) => [group.label, group.attempts, group.passed])).toEqual([
      ['baseline', 2, 1],
      ['fake/model-a', 2, 1],
      ['fake/model-b', 1, 0],
    ]);
    expect(document.rows).toHaveLength(5);
    expect(document.rows[0]).toMatchObject({ task_id: 'toy_fail', status: 'passed', source: 'source-1' });
    expect(document.problems.length).toBeGreaterThan(0);
  });
});

describe('renderMarkdownReport', () => {
  it('gives a headline, a per-model table, failures and the folders side by side', () => {
    const markdown = renderMarkdownReport(model);
    expect(markdown).toContain('**2/5 passed** (40.0%, 95% CI 11.8%–76.9%), 3 failed');
    expect(markdown).toMatch(/\| fake\/model-a \| 2 \| 1 \| 50\.0% \(\d+%–\d+%\) \| pass@1 50% \|/);
    expect(markdown).toContain('| AGENT_GAVE_UP | 1 |');
    expect(markdown).toMatch(/\| toy_fail \| ✅ \| 1\/2 \|  \|/);
    expect(markdown).toContain('<summary>Failed attempts</summary>');
    expect(markdown).not.toContain('weaker verdict');
  });

  it('marks attempts judged by the exit code only as weaker verdicts, naming their tasks', () => {
    const marked: ReportModel = { ...model, rows: model.rows.map((row) => (row.kind === 'attempt' ? { ...row, verdictBasis: row.passed ? 'exit_code' : 'named_tests' } : row)) };
    const count = marked.rows.filter((row) => row.verdictBasis === 'exit_code').length;
    expect(count).toBeGreaterThan(0);
    expect(renderMarkdownReport(marked)).toMatch(new RegExp(`> ⚠️ ${count} attempts? (was|were) judged by the test command's exit code only, a weaker verdict: .*toy_fail`));
  });
});

describe('renderJunitReport', () => {
  it('writes one testsuite per folder and one testcase per attempt, failures with their reason', () => {
    const xml = renderJunitReport(model);
    expect(xml).toContain('<testsuites name="agentbench" tests="5" failures="3" errors="0"');
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toContain('<failure type="BASELINE_NOT_FAILING"');
    expect(xml).toContain('name="toy_fail [fake/model-b]"');
    expect(xml).toContain('name="Support chat [fake/model-a]"');
    // The scenario's message held `</script>`-like text and quotes: it must be escaped.
    expect(xml).not.toMatch(/message="[^"]*<[^"]*"/);
  });

  it.skipIf(xmllintMissing !== undefined)('is valid against the JUnit XML schema (xmllint --schema)', async () => {
    const file = path.join(root, 'report.xml');
    await writeFile(file, renderJunitReport(model));
    const output = execFileSync(xmllint as string, ['--noout', '--schema', schema, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).toBe('');
  });

  it.skipIf(xmllintMissing !== undefined)('the schema check can fail: a testcase without a name is rejected', async () => {
    const file = path.join(root, 'broken.xml');
    await writeFile(file, renderJunitReport(model).replace(/<testcase name="[^"]*"/, '<testcase'));
    expect(() => execFileSync(xmllint as string, ['--noout', '--schema', schema, file], { stdio: 'pipe' })).toThrow(/fails to validate|name.*required/);
  });
});
