import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseMirrorList, runAgentAttempt, validateBaseline, type MirrorRule } from '@agentbench/harness';
import { listManagedContainers } from '@agentbench/sandbox';
import { loadTask } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { createOracleAgent, importSwebench } from '../src/index.js';

const IMAGE = 'agentbench/py-runner:0.1.0';

const skip = dockerSkipReason('oracle.docker.test.ts', IMAGE);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8' });
}

const BUGGY = 'def add(left, right):\n    return left - right\n';
const EXISTING_TEST = 'from calc import add\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n';
// The tests SWE-bench would add: ids with a space, a quote and brackets, as real datasets have.
const TEST_PATCH = [
  'diff --git a/tests/test_calc.py b/tests/test_calc.py',
  '--- a/tests/test_calc.py',
  '+++ b/tests/test_calc.py',
  '@@ -1,5 +1,15 @@',
  '+import pytest',
  ' from calc import add',
  ' ',
  ' ',
  ' def test_zero():',
  '     assert add(0, 0) == 0',
  '+',
  '+',
  '+def test_add():',
  '+    assert add(2, 3) == 5',
  '+',
  '+',
  '+@pytest.mark.parametrize("label", ["a b", "it\'s [x]"])',
  '+def test_add_labels(label):',
  '+    assert add(len(label), 1) == len(label) + 1',
  '',
].join('\n');
const GOLD_PATCH = ['diff --git a/calc/__init__.py b/calc/__init__.py', '--- a/calc/__init__.py', '+++ b/calc/__init__.py', '@@ -1,2 +1,2 @@', ' def add(left, right):', '-    return left - right', '+    return left + right', ''].join('\n');

describe.skipIf(skip !== undefined)('an imported SWE-bench task in real Docker', () => {
  let scratch: string;
  let mirrors: MirrorRule[];
  const runIds: string[] = [];

  beforeAll(async () => {
    // npx sets EDITOR, and the harness's simple-git refuses to run git with it in the environment
    // (reported to the harness's owner); pnpm does not set it.
    delete process.env['EDITOR'];
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-swebench-oracle-'));
    // A small repository and its bare mirror, served for https://github.com/acme/calc.
    const work = path.join(scratch, 'work');
    await mkdir(path.join(work, 'calc'), { recursive: true });
    await mkdir(path.join(work, 'tests'));
    await writeFile(path.join(work, 'calc', '__init__.py'), BUGGY);
    await writeFile(path.join(work, 'tests', 'test_calc.py'), EXISTING_TEST);
    git(work, 'init', '-q');
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'calc with a bug');
    const baseCommit = git(work, 'rev-parse', 'HEAD').trim();
    await mkdir(path.join(scratch, 'mirrors', 'acme'), { recursive: true });
    git(scratch, 'clone', '-q', '--bare', work, path.join(scratch, 'mirrors', 'acme', 'calc'));
    mirrors = parseMirrorList(`https://github.com/=${path.join(scratch, 'mirrors')}/`, { baseDir: scratch });

    const record = {
      instance_id: 'acme__calc-1',
      repo: 'acme/calc',
      base_commit: baseCommit,
      patch: GOLD_PATCH,
      test_patch: TEST_PATCH,
      problem_statement: 'add() subtracts instead of adding.',
      FAIL_TO_PASS: JSON.stringify(['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_labels[a b]', "tests/test_calc.py::test_add_labels[it's [x]]"]),
      PASS_TO_PASS: JSON.stringify(['tests/test_calc.py::test_zero']),
      version: '0.1',
      environment_setup_commit: baseCommit,
    };
    await writeFile(path.join(scratch, 'records.jsonl'), `${JSON.stringify(record)}\n`);
    const result = await importSwebench({ file: path.join(scratch, 'records.jsonl'), outDir: path.join(scratch, 'tasks', 'swe-mini'), dockerImage: IMAGE, timeoutSec: 120 });
    expect(result.skipped).toEqual([]);
  });

  afterAll(async () => {
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it('fails at baseline: the test patch is applied in setup and the FAIL_TO_PASS tests fail', async () => {
    const loaded = await loadTask(path.join(scratch, 'tasks', 'swe-mini', 'acme__calc-1', 'task.yaml'));
    const outcome = await validateBaseline(loaded, { runDir: path.join(scratch, 'baseline'), mirrors, flakyRerun: 'never' });
    runIds.push(outcome.record.run_id);
    expect(outcome.message).toMatch(/fail as expected/);
    expect(outcome.isSuccess).toBe(true);
    expect(outcome.failingTests.sort()).toEqual(['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_labels[a b]', "tests/test_calc.py::test_add_labels[it's [x]]"]);
  }, 300_000);

  it('passes with the oracle agent, which applies the gold patch', async () => {
    const loaded = await loadTask(path.join(scratch, 'tasks', 'swe-mini', 'acme__calc-1', 'task.yaml'));
    // Both lists come from the record: the verdict is the named tests in the harness's report.
    expect(loaded.task.validation?.expected_failing_tests).toEqual(['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_labels[a b]', "tests/test_calc.py::test_add_labels[it's [x]]"]);
    expect(loaded.task.evaluation?.pass_to_pass).toEqual(['tests/test_calc.py::test_zero']);
    const { record, runDir } = await runAgentAttempt({ task: loaded, mirrors, agent: await createOracleAgent({ task: loaded }), variant: 'oracle', skipBaseline: true, outDir: path.join(scratch, 'artifacts') });
    runIds.push(record.run_id);
    expect(record.result).toMatchObject({ passed: true, failure_reason: null, stop_reason: 'SUCCESS', verdict_basis: 'named_tests' });
    expect(record.variant).toBe('oracle');
    const events = (await readFile(path.join(runDir, 'events.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { event_type: string; payload: Record<string, unknown> });
    // The first test run (before the patch) fails; the one after the gold patch passes.
    expect(events.filter((event) => event.event_type === 'tests_finished').map((event) => event.payload['passed'])).toEqual([false, true]);
  }, 300_000);
});
