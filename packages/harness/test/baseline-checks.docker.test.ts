import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoCache, parseMirrorList, validateSuite, type SuiteTaskResult, type ValidateSuiteResult } from '../src/index.js';
import { containersLeftBy, dockerSkipReason } from './helpers/docker-context.js';
import { cloneBare, createGitRepository, makeTemporaryDirectory } from './helpers/git-repository.js';

const skipReason = dockerSkipReason('baseline-checks.docker.test.ts');

// A small Python project whose add() is wrong: tests/test_calc.py::test_add fails, test_sub passes.
const projectFiles = {
  '.gitignore': '__pycache__/\n.pytest_cache/\nbuild/\n*.egg-info/\n',
  'README.md': 'calc\n',
  'pyproject.toml': '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.setuptools]\npy-modules = ["calc"]\npackage-dir = {"" = "src"}\n',
  'src/calc.py': 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n',
  'tests/test_calc.py': 'from calc import add, sub\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n',
  // Fails on odd runs and passes on even ones, counting in a file outside the repository.
  'tests/test_flaky.py': 'import pathlib\n\n\ndef test_sometimes():\n    counter = pathlib.Path("/workspace/counter")\n    count = int(counter.read_text()) + 1 if counter.exists() else 1\n    counter.write_text(str(count))\n    assert count % 2 == 0\n',
};
const pytest = 'PYTHONPATH=src python3 -m pytest -q -p no:cacheprovider';

interface TaskDefinition {
  url?: string;
  commit?: string;
  timeout?: number;
  setup?: string[];
  run?: string;
  validation?: string;
  labels?: string[];
}

describe.skipIf(skipReason !== undefined)('baseline validation checks in real Docker', () => {
  let root: string;
  let result: ValidateSuiteResult;
  let byTask: Map<string, SuiteTaskResult>;

  beforeAll(async () => {
    root = makeTemporaryDirectory('checks');
    const [sha] = createGitRepository(path.join(root, 'calc'), [{ message: 'calc with a bug in add', files: projectFiles }]);
    const bare = path.join(root, 'server', 'calc.git');
    mkdirSync(path.dirname(bare), { recursive: true });
    cloneBare(path.join(root, 'calc'), bare);
    mkdirSync(path.join(root, 'mirrors', 'checks'), { recursive: true });
    cloneBare(path.join(root, 'calc'), path.join(root, 'mirrors', 'checks', 'calc.git'));

    const tasks: Record<string, TaskDefinition> = {
      valid_all_fields: {
        run: `echo note-on-stderr >&2; ${pytest} tests/test_calc.py`,
        validation: [
          'expected_exit_codes: [1]',
          'expected_failure_regex: "1 failed, 1 passed"',
          'expected_stdout_regex: "^FAILED tests/test_calc.py::test_add"',
          'expected_stderr_regex: "note-on-stderr"',
          'disallowed_failure_regex: "(ModuleNotFoundError|ImportError|SyntaxError)"',
          'expected_failing_tests: [tests/test_calc.py::test_add]',
        ].join('\n  '),
      },
      exit_codes_mismatch: { validation: 'expected_exit_codes: [2]' },
      failure_regex_mismatch: { validation: 'expected_failure_regex: "ZeroDivisionError"' },
      stdout_regex_mismatch: { validation: 'expected_stdout_regex: "^nothing like this$"' },
      stderr_regex_mismatch: { validation: 'expected_stderr_regex: "warning-xyz"' },
      disallowed_regex_matches: { validation: 'disallowed_failure_regex: "assert -1 == 5"' },
      failing_tests_missing: { validation: 'expected_failing_tests: [tests/test_calc.py::test_sub]' },
      dirty_setup: { setup: ['echo changed >> README.md'] },
      dirty_setup_allowed: { setup: ['echo changed >> README.md'], validation: 'enforce_clean_setup: false' },
      untracked_setup: { setup: ['touch new-file.txt'] },
      flaky: { run: `${pytest} tests/test_flaky.py` },
      bad_url: { url: path.join(root, 'nowhere', 'calc.git') },
      bad_commit: { commit: 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef' },
      no_tests: { run: `${pytest} -k nothing_has_this_name` },
      setup_timeout: { timeout: 3, setup: ['sleep 30'] },
      declared_exit_code: { run: 'python3 -m pytest --no-such-option', validation: 'expected_exit_codes: [4]' },
      mirrored: { url: 'https://git.example.invalid/checks/calc' },
      pip_persists: {
        setup: ['pip install --no-index --no-build-isolation .'],
        run: 'PYTHONPATH=/workspace/site-packages python3 -m pytest -q -p no:cacheprovider tests/test_calc.py',
        validation: 'disallowed_failure_regex: "ModuleNotFoundError|ImportError"\n  expected_failing_tests: [tests/test_calc.py::test_add]',
      },
      labelled_flaky: { labels: ['flaky'] },
    };
    for (const [id, definition] of Object.entries(tasks)) {
      const folder = path.join(root, 'tasks', 'checks', id);
      mkdirSync(folder, { recursive: true });
      const lines = [
        'task_spec_version: "1.0"',
        `id: ${id}`,
        'suite: checks',
        `labels: [${(definition.labels ?? []).join(', ')}]`,
        'repo:',
        `  url: ${definition.url ?? bare}`,
        `  commit: ${definition.commit ?? sha}`,
        'environment:',
        '  docker_image: agentbench/py-runner:0.1.0',
        '  workdir: /workspace',
        `  timeout_sec: ${definition.timeout ?? 60}`,
        'setup:',
        `  commands: ${JSON.stringify(definition.setup ?? [])}`,
        'run:',
        `  command: ${JSON.stringify(definition.run ?? `${pytest} tests/test_calc.py`)}`,
      ];
      if (definition.validation !== undefined) lines.push('validation:', `  ${definition.validation}`);
      writeFileSync(path.join(folder, 'task.yaml'), `${lines.join('\n')}\n`);
    }

    result = await validateSuite({
      suite: 'checks',
      tasksDir: path.join(root, 'tasks'),
      outDir: path.join(root, 'artifacts'),
      concurrency: 4,
      flakyRerun: 'always',
      mirrors: parseMirrorList(`https://git.example.invalid/=${path.join(root, 'mirrors')}/`, { baseDir: root }),
      cache: new RepoCache({ directory: path.join(root, 'cache') }),
    });
    byTask = new Map(result.tasks.map((task) => [task.taskId, task]));
  }, 600_000);

  afterAll(async () => {
    const left = result === undefined ? [] : await containersLeftBy(result.runId);
    await rm(root, { recursive: true, force: true });
    expect(left, 'containers left behind').toEqual([]);
  });

  const reasonOf = (taskId: string): string | null | undefined => byTask.get(taskId)?.record?.result.failure_reason;
  const messageOf = (taskId: string): string => byTask.get(taskId)?.outcome?.message ?? '';

  it('accepts a baseline that meets every validation field', () => {
    expect(byTask.get('valid_all_fields')?.status).toBe('valid');
    expect(byTask.get('valid_all_fields')?.outcome?.failingTests).toEqual(['tests/test_calc.py::test_add']);
  });

  it('reports each missed validation field as BASELINE_MISMATCH naming the field', () => {
    const fields: Record<string, string> = {
      exit_codes_mismatch: 'validation.expected_exit_codes: exit code 1 is not one of the expected [2]',
      failure_regex_mismatch: 'validation.expected_failure_regex: /ZeroDivisionError/ does not match the output (stdout + stderr)',
      stdout_regex_mismatch: 'validation.expected_stdout_regex: /^nothing like this$/ does not match stdout',
      stderr_regex_mismatch: 'validation.expected_stderr_regex: /warning-xyz/ does not match stderr',
      disallowed_regex_matches: 'validation.disallowed_failure_regex: /assert -1 == 5/ matches the output: "E       assert -1 == 5"',
      // Read from the harness's JUnit report (pytest), not from the terminal.
      failing_tests_missing: 'validation.expected_failing_tests: test tests/test_calc.py::test_sub (passed) did not fail in the report',
    };
    for (const [taskId, message] of Object.entries(fields)) {
      expect([taskId, reasonOf(taskId), messageOf(taskId)]).toEqual([taskId, 'BASELINE_MISMATCH', message]);
    }
  });

  it('saves the mismatch beside the logs', async () => {
    const file = byTask.get('exit_codes_mismatch')?.record?.artifact_paths['baseline_mismatch'];
    expect(await readFile(path.join(result.runDir, file ?? 'missing'), 'utf8')).toBe('validation.expected_exit_codes: exit code 1 is not one of the expected [2]\n');
  });

  it('refuses a setup that changes or adds files, unless enforce_clean_setup is false, and keeps status and diff', async () => {
    expect(reasonOf('dirty_setup')).toBe('SETUP_DIRTY_WORKTREE');
    expect(messageOf('dirty_setup')).toMatch(/^setup changed the work tree \(1 path: M README.md\)/);
    expect(reasonOf('untracked_setup')).toBe('SETUP_DIRTY_WORKTREE');
    expect(messageOf('untracked_setup')).toContain('A new-file.txt');
    expect(byTask.get('dirty_setup_allowed')?.status).toBe('valid');
    const logs = path.join(result.runDir, 'logs', 'dirty_setup');
    expect(await readFile(path.join(logs, 'post_setup_status.txt'), 'utf8')).toBe('M README.md\n');
    expect(await readFile(path.join(logs, 'post_setup_diff.patch'), 'utf8')).toContain('+changed');
  });

  it('detects a flaky baseline on the rerun', async () => {
    expect(reasonOf('flaky')).toBe('BASELINE_FLAKY');
    const comparison = await readFile(path.join(result.runDir, 'logs', 'flaky', 'baseline_rerun_comparison.txt'), 'utf8');
    expect(comparison).toContain('run_1_exit_code: 1');
    expect(comparison).toContain('run_2_exit_code: 0');
    expect(byTask.get('flaky')?.record?.result.exit_code).toBe(0);
  });

  it('maps a bad git URL to GIT_CLONE_FAILED and a bad commit to GIT_CHECKOUT_FAILED, with git\'s message', () => {
    expect(reasonOf('bad_url')).toBe('GIT_CLONE_FAILED');
    expect(messageOf('bad_url')).toBe(`cannot clone ${path.join(root, 'nowhere', 'calc.git')}: fatal: repository '${path.join(root, 'nowhere', 'calc.git')}' does not exist`);
    expect(reasonOf('bad_commit')).toBe('GIT_CHECKOUT_FAILED');
    expect(messageOf('bad_commit')).toMatch(/^cannot check out deadbeefdeadbeefdeadbeefdeadbeefdeadbeef of .*calc\.git: fatal: Not a valid object name deadbeefdeadbeefdeadbeefdeadbeefdeadbeef\^\{commit\}$/);
    expect(byTask.get('bad_commit')?.record?.baseline_validation.exit_code).toBeNull();
  });

  it('maps pytest exit 5 to NO_TESTS_COLLECTED and a setup over its time to SETUP_TIMEOUT', () => {
    expect(reasonOf('no_tests')).toBe('NO_TESTS_COLLECTED');
    expect(reasonOf('setup_timeout')).toBe('SETUP_TIMEOUT');
    expect(messageOf('setup_timeout')).toBe('setup command 1 (sleep 30) timed out after 3 s');
  });

  it('accepts an exit code pytest reserves when the task declares it', () => {
    expect(byTask.get('declared_exit_code')?.status).toBe('valid');
  });

  it('serves a remote URL from a local bare mirror through the mirror map', async () => {
    expect(byTask.get('mirrored')?.status).toBe('valid');
    expect(byTask.get('mirrored')?.outcome?.repositorySource).toBe(path.join(root, 'mirrors', 'checks', 'calc.git'));
  });

  it('makes pip install persist into /workspace/site-packages for the tests', async () => {
    expect(byTask.get('pip_persists')?.status).toBe('valid');
    expect(byTask.get('pip_persists')?.outcome?.setupCommands).toEqual([
      { written: 'pip install --no-index --no-build-isolation .', run: 'pip install --no-index --no-build-isolation . --target=/workspace/site-packages --upgrade --force-reinstall' },
    ]);
  });

  it('skips tasks labelled flaky and says so in run.json', async () => {
    expect(byTask.get('labelled_flaky')).toEqual({ taskId: 'labelled_flaky', status: 'skipped', skippedBy: ['flaky'] });
    const run = JSON.parse(await readFile(path.join(result.runDir, 'run.json'), 'utf8')) as { task_ids: string[]; options: { skipped_tasks: unknown }; counts: { skipped: number } };
    expect(run.task_ids).not.toContain('labelled_flaky');
    expect(run.options.skipped_tasks).toEqual([{ task_id: 'labelled_flaky', labels: ['flaky'] }]);
    expect(run.counts.skipped).toBe(1);
  });
});
