import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validTaskYaml } from '../../test/helpers/fixtures.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { FileValidationError } from '../errors/file-validation-error.js';
import { SchemasError } from '../errors/schemas-error.js';
import { HARNESS_VERSION } from '../version.js';
import { loadTask, resolveRepositoryUrl, validateTaskFile } from './load-task.js';
import { formatIssue } from '../errors/validation-issue.js';

let directory: TemporaryDirectory;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

async function loadError(file: string): Promise<FileValidationError> {
  const error = await loadTask(file).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!FileValidationError.isInstance(error)) throw new Error(`expected a FileValidationError, got ${String(error)}`);
  return error;
}

describe('loadTask', () => {
  it('loads a valid task with defaults and keeps the remote URL as is', async () => {
    const file = await directory.write('custom-dev/toy/task.yaml', validTaskYaml);
    const loaded = await loadTask(file);
    expect(loaded.file).toBe(file);
    expect(loaded.dir).toBe(path.dirname(file));
    expect(loaded.task.id).toBe('toy_fail_pytest');
    expect(loaded.task.labels).toEqual(['toy']);
    expect(loaded.repoUrl).toBe('https://github.com/example/toy');
    expect(loaded.isLocalRepo).toBe(false);
    expect(loaded.warnings).toEqual([]);
  });

  it('reports an unknown key, a wrong type and an unsupported spec version with file, line, column and path', async () => {
    const text = validTaskYaml
      .replace('task_spec_version: "1.0"', 'task_spec_version: "2.0"')
      .replace('  timeout_sec: 60', '  timeout_sec: sixty')
      .replace('run:\n', 'network: none\nrun:\n');
    const file = await directory.write('task.yaml', text);
    const error = await loadError(file);
    expect(error.issues.map(formatIssue)).toEqual([
      `${file}:1:20: task_spec_version: expected a supported task spec version: "1.0", found "2.0"`,
      `${file}:15:16: environment.timeout_sec: expected number, found "sixty"`,
      `${file}:21:1: network: unknown field "network" (expected one of: task_spec_version, id, suite, repo, environment, setup, run, validation, evaluation, agent, labels, harness_min_version)`,
    ]);
    expect(error.issues[0]).toMatchObject({ expected: '"1.0"', received: '"2.0"', severity: 'error' });
    expect(error.message.split('\n')).toEqual([`${file} is not valid (3 errors):`, ...error.issues.map((issue) => `  ${formatIssue(issue)}`)]);
    expect(error.name).toBe('FileValidationError');
    expect(SchemasError.isInstance(error)).toBe(true);
  });

  it('suggests the field a misspelt key was meant to be', async () => {
    const file = await directory.write('task.yaml', validTaskYaml.replace('  workdir: /workspace', '  work_dir: /workspace'));
    const messages = (await loadError(file)).issues.map(formatIssue);
    expect(messages).toEqual([
      // A missing field points at its parent's key: the block it should be in.
      `${file}:12:1: environment.workdir: required field is missing`,
      `${file}:14:3: environment.work_dir: unknown field "work_dir" (did you mean "workdir"?)`,
    ]);
  });

  it('tells how to keep an unquoted version a string', async () => {
    const file = await directory.write('task.yaml', validTaskYaml.replace('task_spec_version: "1.0"', 'task_spec_version: 1.0'));
    expect((await loadError(file)).issues.map(formatIssue)).toEqual([
      `${file}:1:20: task_spec_version: expected a supported task spec version: "1.0", found 1 (quote the value in YAML to keep it a string)`,
    ]);
  });

  it('points at the bad item of a list and at an invalid regex', async () => {
    const text = `${validTaskYaml}validation:\n  expected_exit_codes: [1, -2]\n  expected_failure_regex: "AssertionError ("\n`;
    const file = await directory.write('task.yaml', text);
    const issues = (await loadError(file)).issues;
    expect(issues.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ['validation.expected_exit_codes[1]', 24, 28],
      ['validation.expected_failure_regex', 25, 27],
    ]);
    expect(issues[1]?.message).toMatch(/^expected a valid JavaScript regular expression \(.+\), found "AssertionError \("$/);
  });

  it('rejects a harness_min_version above this harness', async () => {
    const file = await directory.write('task.yaml', validTaskYaml.replace('harness_min_version: "0.1.0"', 'harness_min_version: "9.0.0"'));
    expect((await loadError(file)).issues.map(formatIssue)).toEqual([
      `${file}:4:22: harness_min_version: expected a version at most ${HARNESS_VERSION} (this harness); upgrade AgentBench to run this task, found "9.0.0"`,
    ]);
  });

  it('resolves a relative repo URL against the task folder and warns when it does not exist', async () => {
    const file = await directory.write('suite/toy/task.yaml', validTaskYaml.replace('https://github.com/example/toy', 'examples/toy_repo'));
    const missing = await validateTaskFile(file);
    expect(missing.success).toBe(true);
    const expectedPath = path.join(path.dirname(file), 'examples/toy_repo');
    expect(missing.value?.repoUrl).toBe(expectedPath);
    expect(missing.value?.task.repo.url).toBe('examples/toy_repo');
    expect(missing.value?.isLocalRepo).toBe(true);
    expect(missing.issues.map(formatIssue)).toEqual([
      `${file}:9:8: warning: repo.url: local repository ${expectedPath} does not exist (resolved from "examples/toy_repo"); running this task will fail with GIT_CLONE_FAILED`,
    ]);

    await mkdir(expectedPath, { recursive: true });
    const present = await loadTask(file);
    expect(present.warnings).toEqual([]);
  });

  it('loads the scripted agent from script_file relative to the task', async () => {
    const file = await directory.write('task.yaml', `${validTaskYaml}agent:\n  entrypoint: scripted\n  script_file: scripts/fix.yaml\n`);
    await directory.write('scripts/fix.yaml', '- tool: read_file\n  args: {path: src/a.py}\n- tool: run\n  args: {command: pytest}\n');
    const loaded = await loadTask(file);
    expect(loaded.agentScriptFile).toBe(path.join(directory.path, 'scripts/fix.yaml'));
    expect(loaded.agentScript).toEqual([
      { tool: 'read_file', args: { path: 'src/a.py' } },
      { tool: 'run', args: { command: 'pytest' } },
    ]);
  });

  it('reports a missing script file at agent.script_file and a bad script at its own line', async () => {
    const file = await directory.write('task.yaml', `${validTaskYaml}agent:\n  entrypoint: scripted\n  script_file: fix.yaml\n`);
    expect((await loadError(file)).issues.map(formatIssue)).toEqual([
      `${file}:25:16: agent.script_file: script file ${path.join(directory.path, 'fix.yaml')} not found`,
    ]);
    const scriptFile = await directory.write('fix.yaml', '- tool: read_file\n- tool: format_disk\n');
    expect((await loadError(file)).issues.map(formatIssue)).toEqual([`${scriptFile}:2:9: [1].tool: expected "list_files" | "read_file" | "search" | "apply_patch" | "run", found "format_disk"`]);
  });

  it('reports YAML syntax errors and empty files as issues', async () => {
    const broken = await directory.write('broken/task.yaml', 'id: a\nlabels: [toy\nsuite: x\n');
    const syntax = await validateTaskFile(broken);
    expect(syntax.success).toBe(false);
    expect(syntax.issues.length).toBeGreaterThan(0);
    expect(syntax.issues[0]).toMatchObject({ file: broken, line: 3, column: 1, path: '', severity: 'error' });
    expect(syntax.issues[0]?.message).toMatch(/^YAML syntax error: Flow sequence/);

    const duplicate = await directory.write('duplicate/task.yaml', 'id: a\nid: b\n');
    expect((await validateTaskFile(duplicate)).issues.map(formatIssue)).toEqual([`${duplicate}:2:1: duplicate key "id" (first at line 1); a key may appear once in a mapping`]);

    const empty = await directory.write('empty/task.yaml', '# nothing\n');
    const result = await validateTaskFile(empty);
    expect(result.issues.map(formatIssue)).toEqual([
      `${empty}:1:1: the file is empty (no YAML content); expected a task: a mapping with task_spec_version, id, repo, environment and run`,
    ]);
  });

  it('reports a file that does not exist', async () => {
    const file = path.join(directory.path, 'nope/task.yaml');
    expect((await loadError(file)).issues.map(formatIssue)).toEqual([`${file}:1:1: file not found`]);
  });
});

describe('resolveRepositoryUrl', () => {
  it.each([
    ['https://github.com/psf/requests', false],
    ['ssh://git@example.com/a.git', false],
    ['git@github.com:psf/requests.git', false],
  ])('keeps remote %s', (url, isLocalRepo) => {
    expect(resolveRepositoryUrl(url, '/tasks/x')).toEqual({ repoUrl: url, isLocalRepo });
  });

  it('resolves relative, absolute and file: URLs to local paths', () => {
    expect(resolveRepositoryUrl('../repo', '/tasks/x')).toEqual({ repoUrl: '/tasks/repo', isLocalRepo: true });
    expect(resolveRepositoryUrl('/srv/repo', '/tasks/x')).toEqual({ repoUrl: '/srv/repo', isLocalRepo: true });
    expect(resolveRepositoryUrl('file:///srv/repo', '/tasks/x')).toEqual({ repoUrl: '/srv/repo', isLocalRepo: true });
  });
});
