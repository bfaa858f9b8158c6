import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validTaskYaml } from '../../test/helpers/fixtures.js';
import { HARNESS_VERSION } from '../version.js';
import { TaskSchema } from './task-schema.js';

function baseTask(): Record<string, any> {
  return parse(validTaskYaml) as Record<string, any>;
}

function issuePaths(input: unknown): string[] {
  const result = v.safeParse(TaskSchema, input);
  if (result.success) return [];
  return result.issues.map((issue) => v.getDotPath(issue) ?? '');
}

function firstMessage(input: unknown): string {
  const result = v.safeParse(TaskSchema, input);
  if (result.success) throw new Error('expected the task to be invalid');
  return result.issues[0]?.message ?? '';
}

describe('TaskSchema', () => {
  it('accepts a complete task and applies defaults', () => {
    const task = baseTask();
    delete task.labels;
    delete task.setup;
    task.validation = { expected_exit_codes: [1] };
    const output = v.parse(TaskSchema, task);
    expect(output.labels).toEqual([]);
    expect(output.setup).toEqual({ commands: [] });
    expect(output.validation?.enforce_clean_setup).toBe(true);
    expect(output.repo.commit).toBe('8b2d107781ccba9ae05308d60cde2e6fd074db8f');
  });

  it('rejects task_spec_version other than "1.0" naming the supported versions', () => {
    expect(firstMessage({ ...baseTask(), task_spec_version: '2.0' })).toContain('"1.0"');
    expect(issuePaths({ ...baseTask(), task_spec_version: 1 })).toEqual(['task_spec_version']);
  });

  it.each([
    ['id', 'has space'],
    ['id', '../escape'],
    ['id', '.hidden'],
    ['id', ''],
    ['suite', 'a/b'],
  ])('rejects unsafe identifier %s = %j', (field, value) => {
    expect(issuePaths({ ...baseTask(), [field]: value })).toEqual([field]);
  });

  it.each(['psf__requests-1963', 'toy_fail_pytest', 'a.b-c_1'])('accepts identifier %j', (id) => {
    expect(issuePaths({ ...baseTask(), id })).toEqual([]);
  });

  it.each(['8b2d107', '8B2D107781CCBA9AE05308D60CDE2E6FD074DB8F', 'main', 'v1.2.0', 'release/2024'])('accepts commit %j', (commit) => {
    const task = baseTask();
    task.repo.commit = commit;
    expect(issuePaths(task)).toEqual([]);
  });

  it.each(['has space', 'a..b', '-flag', 'branch.lock', 'x~1', ''])('rejects commit %j', (commit) => {
    const task = baseTask();
    task.repo.commit = commit;
    expect(issuePaths(task)).toEqual(['repo.commit']);
  });

  it('requires an absolute workdir and a positive integer timeout', () => {
    const task = baseTask();
    task.environment.workdir = 'workspace';
    task.environment.timeout_sec = 0;
    expect(issuePaths(task)).toEqual(['environment.workdir', 'environment.timeout_sec']);
    task.environment.workdir = '/w';
    task.environment.timeout_sec = 1.5;
    expect(issuePaths(task)).toEqual(['environment.timeout_sec']);
  });

  it('takes an optional positive whole max_output_bytes', () => {
    const task = baseTask();
    expect(issuePaths(task)).toEqual([]);
    task.environment.max_output_bytes = 1_000_000;
    expect(issuePaths(task)).toEqual([]);
    for (const bad of [0, -5, 1.5, '10MB']) {
      task.environment.max_output_bytes = bad;
      expect(issuePaths(task)).toEqual(['environment.max_output_bytes']);
    }
  });

  it('takes an optional container runtime name (gVisor: runsc)', () => {
    const task = baseTask();
    for (const runtime of ['runsc', 'runc', 'io.containerd.runc.v2', 'kata-runtime']) {
      task.environment.runtime = runtime;
      expect(issuePaths(task)).toEqual([]);
    }
    for (const bad of ['', 'run sc', '-runsc', 'runsc;rm', 42]) {
      task.environment.runtime = bad;
      expect(issuePaths(task)).toEqual(['environment.runtime']);
    }
    task.environment.runtime = 'run sc';
    expect(firstMessage(task)).toMatch(/container runtime name such as "runsc"/);
  });

  it('checks the image, setup commands and run command', () => {
    const task = baseTask();
    task.environment.docker_image = 'python 3.11';
    task.setup.commands = ['pip install .', ''];
    task.run.command = '';
    expect(issuePaths(task)).toEqual(['environment.docker_image', 'setup.commands.1', 'run.command']);
    expect(issuePaths({ ...baseTask(), setup: {} })).toEqual(['setup.commands']);
  });

  it('rejects unknown keys at every level', () => {
    const task = baseTask();
    task.extra = 1;
    task.repo.branch = 'main';
    task.environment.memory = '1g';
    task.run.cwd = '/';
    task.setup.env = {};
    expect(issuePaths(task).sort()).toEqual(['environment.memory', 'extra', 'repo.branch', 'run.cwd', 'setup.env']);
  });

  it('requires repo, environment and run', () => {
    const task = baseTask();
    delete task.repo;
    delete task.environment;
    delete task.run;
    expect(issuePaths(task)).toEqual(['repo', 'environment', 'run']);
  });

  it('checks that every validation regex compiles as a JavaScript RegExp', () => {
    for (const field of ['expected_failure_regex', 'expected_stdout_regex', 'expected_stderr_regex', 'disallowed_failure_regex']) {
      expect(issuePaths({ ...baseTask(), validation: { [field]: 'FAILED (' } })).toEqual([`validation.${field}`]);
      expect(issuePaths({ ...baseTask(), validation: { [field]: 'FAILED \\(\\d+\\)' } })).toEqual([]);
    }
    expect(firstMessage({ ...baseTask(), validation: { expected_failure_regex: '[' } })).toMatch(/valid JavaScript regular expression/);
  });

  it('checks the validation block fields', () => {
    const task = { ...baseTask(), validation: { expected_exit_codes: [1, 2.5, 300], expected_failing_tests: ['t::a', 3], enforce_clean_setup: 'no' } };
    expect(issuePaths(task)).toEqual([
      'validation.expected_exit_codes.1',
      'validation.expected_exit_codes.2',
      'validation.expected_failing_tests.1',
      'validation.enforce_clean_setup',
    ]);
    expect(issuePaths({ ...baseTask(), validation: { expected_exit_codes: [] } })).toEqual(['validation.expected_exit_codes']);
    expect(v.parse(TaskSchema, { ...baseTask(), validation: { enforce_clean_setup: false } }).validation?.enforce_clean_setup).toBe(false);
  });

  it('takes evaluation.pass_to_pass and evaluation.results (JUnit at a path without ..)', () => {
    const evaluation = { pass_to_pass: ['tests/test_a.py::test_ok[1]'], results: { format: 'junit', path: 'reports/junit.xml' } };
    expect(v.parse(TaskSchema, { ...baseTask(), evaluation }).evaluation).toMatchObject(evaluation);
    expect(issuePaths({ ...baseTask(), evaluation: { pass_to_pass: [''] } })).toEqual(['evaluation.pass_to_pass.0']);
    expect(issuePaths({ ...baseTask(), evaluation: { results: { format: 'tap', path: 'x.xml' } } })).toEqual(['evaluation.results.format']);
    expect(issuePaths({ ...baseTask(), evaluation: { results: { format: 'junit', path: '../x.xml' } } })).toEqual(['evaluation.results.path']);
    expect(issuePaths({ ...baseTask(), evaluation: { results: { format: 'junit' } } })).toEqual(['evaluation.results.path']);
  });

  it('checks the agent block and its scripted tool calls', () => {
    const withScript = {
      ...baseTask(),
      agent: { entrypoint: 'scripted', max_steps: 5, script: [{ tool: 'list_files' }, { tool: 'read_file', args: { path: 'a.py' } }] },
    };
    expect(v.parse(TaskSchema, withScript).agent?.script?.[0]).toEqual({ tool: 'list_files', args: {} });
    expect(issuePaths({ ...baseTask(), agent: { entrypoint: 'scripted', script: [{ tool: 'delete_everything' }] } })).toEqual(['agent.script.0.tool']);
    expect(issuePaths({ ...baseTask(), agent: { entrypoint: 'scripted', script: [] } })).toEqual(['agent.script']);
    expect(issuePaths({ ...baseTask(), agent: { entrypoint: 'llm_v0', max_steps: 0 } })).toEqual(['agent.max_steps']);
    expect(issuePaths({ ...baseTask(), agent: { max_steps: 3 } })).toEqual(['agent.entrypoint']);
    expect(issuePaths({ ...baseTask(), agent: { entrypoint: 'scripted', script_file: '/abs/script.yaml' } })).toEqual(['agent.script_file']);
    expect(
      issuePaths({ ...baseTask(), agent: { entrypoint: 'scripted', script: [{ tool: 'run' }], script_file: 'script.yaml' } }),
    ).toEqual(['agent.script_file']);
  });

  it('checks labels and harness_min_version', () => {
    expect(issuePaths({ ...baseTask(), labels: 'toy' })).toEqual(['labels']);
    expect(issuePaths({ ...baseTask(), harness_min_version: '0.1' })).toEqual(['harness_min_version']);
    expect(issuePaths({ ...baseTask(), harness_min_version: HARNESS_VERSION })).toEqual([]);
    expect(issuePaths({ ...baseTask(), harness_min_version: '0.0.9' })).toEqual([]);
    expect(firstMessage({ ...baseTask(), harness_min_version: '99.0.0' })).toContain(`at most ${HARNESS_VERSION}`);
  });
});
