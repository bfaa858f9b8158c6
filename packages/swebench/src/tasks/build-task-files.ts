import { DEFAULT_DOCKER_IMAGE } from '@agentbench/sandbox';
import { Document } from 'yaml';
import type { SwebenchRecord } from '../records/swebench-record.js';
import { repositoryProfileFor, REPOSITORY_PROFILES, type RepositoryProfile } from '../repositories/repository-profiles.js';
import { changedFilesOfPatch } from './patch-files.js';
import { TASK_FOLDER_FILES } from './task-folder-files.js';
import { buildTestCommand, type TestCommandPlan } from './test-command.js';
import { testPatchCommands } from './test-patch-commands.js';

/**
 * `environment.timeout_sec` written into every imported task: each setup command and each test run.
 * Longer than the sandbox's per-command default (DEFAULT_EXEC_TIMEOUT_SEC, 300 s): a SWE-bench
 * repository's installs and test suites often run for many minutes.
 */
export const DEFAULT_IMPORTED_TASK_TIMEOUT_SEC = 1800;
export const DEFAULT_MAX_STEPS = 30;
export const DEFAULT_AGENT_ENTRYPOINT = 'llm_v0';

export interface TaskBuildSettings {
  suite: string;
  dockerImage?: string;
  /** `environment.timeout_sec`: each setup command and each test run. */
  timeoutSec?: number;
  maxSteps?: number;
  /** `agent.entrypoint` written to the task (the CLI's --variant overrides it). */
  agentEntrypoint?: string;
  /** Replaces the table's setup commands (after the test patch) for every task. */
  setupCommands?: readonly string[];
  profiles?: readonly RepositoryProfile[];
}

/** The contents of one task folder, keyed by file name (see TASK_FOLDER_FILES). */
export interface TaskFolderContent {
  taskId: string;
  files: Record<string, string>;
  plan: TestCommandPlan;
  profile: RepositoryProfile;
}

/** A path as a git glob that matches only itself. */
function globLiteral(file: string): string {
  return file.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Builds task.yaml and the files beside it for one record. Pure: writes nothing. */
export function buildTaskFolder(record: SwebenchRecord, settings: TaskBuildSettings): TaskFolderContent {
  const profile = repositoryProfileFor(record.repo, settings.profiles ?? REPOSITORY_PROFILES);
  const plan = buildTestCommand(record, profile);
  const setupCommands = [...testPatchCommands(record.testPatch), ...(settings.setupCommands ?? profile.setup)];

  const task: Record<string, unknown> = {
    task_spec_version: '1.0',
    id: record.instanceId,
    suite: settings.suite,
    labels: ['swe-bench', record.repo],
    repo: { url: `https://github.com/${record.repo}`, commit: record.baseCommit },
    environment: {
      docker_image: settings.dockerImage ?? DEFAULT_DOCKER_IMAGE,
      workdir: '/workspace',
      timeout_sec: settings.timeoutSec ?? DEFAULT_IMPORTED_TASK_TIMEOUT_SEC,
    },
    setup: { commands: setupCommands },
    run: { command: plan.command },
    // The files of the test patch are the tests: the agent's changes to them never reach the verdict.
    evaluation: {
      protected_paths: changedFilesOfPatch(record.testPatch).map(globLiteral),
      ...(plan.namedTests === undefined ? {} : { pass_to_pass: plan.namedTests.passToPass }),
    },
  };
  // The verdict is the named tests in the harness's JUnit report (pytest runners only: Django's
  // and sympy's ids are not node ids, so those tasks keep the exit code). A FAIL_TO_PASS test whose
  // file does not import before the fix is reported as its module's collection error, which the
  // baseline counts as the test failing.
  if (plan.namedTests !== undefined) task.validation = { expected_failing_tests: plan.namedTests.failToPass };
  task.agent = { entrypoint: settings.agentEntrypoint ?? DEFAULT_AGENT_ENTRYPOINT, max_steps: settings.maxSteps ?? DEFAULT_MAX_STEPS };

  const document = new Document(task);
  document.commentBefore = [
    ` Imported from SWE-bench instance ${record.instanceId} (${record.repo} ${record.version}) by \`ab import-swebench\`.`,
    ` Beside it: ${TASK_FOLDER_FILES.problemStatement} (the issue, for the agent's prompt), ${TASK_FOLDER_FILES.goldPatch} (the fix,`,
    ` for --variant oracle), ${TASK_FOLDER_FILES.testPatch} (the tests; the first setup commands apply and commit it), ${TASK_FOLDER_FILES.metadata}.`,
    ` Test runner: ${profile.testRunner} (${profile.repo === '*' ? 'default recipe' : `recipe for ${profile.repo}`}): ${profile.notes}`,
    ...plan.notes.map((note) => ` Note: ${note}`),
  ].join('\n');
  const taskYaml = document.toString({ lineWidth: 0, blockQuote: 'literal' });

  const metadata = {
    instance_id: record.instanceId,
    repo: record.repo,
    version: record.version,
    base_commit: record.baseCommit,
    environment_setup_commit: record.environmentSetupCommit ?? null,
    created_at: record.createdAt ?? null,
    test_runner: profile.testRunner,
    test_selectors: plan.selectors,
    FAIL_TO_PASS: record.failToPass,
    PASS_TO_PASS: record.passToPass,
  };
  return {
    taskId: record.instanceId,
    profile,
    plan,
    files: {
      [TASK_FOLDER_FILES.task]: taskYaml,
      [TASK_FOLDER_FILES.problemStatement]: withFinalNewline(record.problemStatement.replaceAll('\r\n', '\n')),
      [TASK_FOLDER_FILES.goldPatch]: withFinalNewline(record.patch),
      [TASK_FOLDER_FILES.testPatch]: withFinalNewline(record.testPatch),
      [TASK_FOLDER_FILES.metadata]: `${JSON.stringify(metadata, null, 2)}\n`,
    },
  };
}
