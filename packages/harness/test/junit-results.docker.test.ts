import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { runAgentAttempt } from '../src/index.js';
import { containersLeftBy } from './helpers/docker-context.js';
import { createGitRepository } from './helpers/git-repository.js';

const skipReason = dockerSkipReason('junit-results.docker.test.ts');

// A test runner that is not pytest, as a task's repository would bring one: it writes JUnit XML
// and exits 1 when a check fails.
const RUN_CHECKS = `import os, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, ".")
from calc import add

CHECKS = {"adds": lambda: add(2, 3) == 5, "adds_zero": lambda: add(0, 0) == 0}
suite = ET.Element("testsuite", name="checks")
for name, check in CHECKS.items():
    case = ET.SubElement(suite, "testcase", classname="checks", name=name)
    try:
        ok = check()
    except Exception:
        ok = False
    if not ok:
        ET.SubElement(case, "failure", message="check failed")
os.makedirs("reports", exist_ok=True)
ET.ElementTree(suite).write("reports/junit.xml")
sys.exit(1 if suite.find("testcase/failure") is not None else 0)
`;

const taskYaml = (commit: string): string => `task_spec_version: "1.0"
id: junit_results
suite: scratch
repo: { url: ./repo, commit: ${commit} }
environment: { docker_image: agentbench/py-runner:0.1.0, workdir: /workspace, timeout_sec: 60 }
run: { command: python3 run_checks.py }
validation: { expected_failing_tests: ["checks::adds"] }
evaluation:
  protected_paths: [run_checks.py]
  pass_to_pass: ["checks::adds_zero"]
  results: { format: junit, path: reports/junit.xml }
`;

describe.skipIf(skipReason !== undefined)('evaluation.results: a JUnit report of a runner other than pytest decides (real Docker)', () => {
  let scratch = '';
  let task: LoadedTask;
  const runIds: string[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-junit-results-'));
    // The repository commits a report that says every check passed: the harness removes it before the run.
    const stale = '<testsuite><testcase classname="checks" name="adds"/><testcase classname="checks" name="adds_zero"/></testsuite>';
    const [commit] = createGitRepository(path.join(scratch, 'repo'), [
      { message: 'calc with a bug', files: { 'calc.py': 'def add(left, right):\n    return left - right\n', 'run_checks.py': RUN_CHECKS, 'reports/junit.xml': stale } },
    ]);
    await writeFile(path.join(scratch, 'task.yaml'), taskYaml(commit as string));
    task = await loadTask(path.join(scratch, 'task.yaml'));
  });

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => containersLeftBy(runId)))).flat();
    if (scratch !== '') await rm(scratch, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
  });

  async function attemptWriting(name: string, body: string) {
    const scriptFile = path.join(scratch, `${name}.json`);
    const command = `printf 'def add(left, right):\\n    return ${body}\\n' > calc.py && python3 run_checks.py`;
    await writeFile(scriptFile, JSON.stringify([{ tool: 'run', args: { command, timeout_sec: 60 } }]));
    const result = await runAgentAttempt({ task, variant: 'scripted', scriptFile, skipBaseline: true, mirrors: [], outDir: path.join(scratch, name) });
    runIds.push(result.record.run_id);
    return { record: result.record, verdict: result.verdict };
  }

  it('passes the fix: both named checks pass in the report', async () => {
    const { record, verdict } = await attemptWriting('fixed', 'left + right');
    expect(record.result, verdict?.message).toMatchObject({ passed: true, failure_reason: null, verdict_basis: 'named_tests' });
  }, 180_000);

  it('fails a change that makes the FAIL_TO_PASS check pass but breaks the PASS_TO_PASS one', async () => {
    const { record, verdict } = await attemptWriting('breaks-zero', '5');
    expect(record.result).toMatchObject({ passed: false, verdict_basis: 'named_tests' });
    expect(verdict).toMatchObject({ failureReason: 'TESTS_FAILED', message: expect.stringContaining('checks::adds_zero (failed)') });
  }, 180_000);
});
