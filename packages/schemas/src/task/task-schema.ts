import * as v from 'valibot';
import { ToolNameSchema } from '../records/tool-request.js';
import { isCommitSha, isGitReferenceName } from '../shared/git-reference.js';
import {
  described,
  AbsolutePosixPathSchema,
  NonEmptyStringSchema,
  PositiveIntegerSchema,
  RegexSourceSchema,
  SafeIdentifierSchema,
  SemverSchema,
} from '../shared/primitives.js';
import { compareSemver, parseSemver } from '../shared/semver.js';
import { RuntimeNameSchema } from './runtime-name.js';
import { HARNESS_VERSION, SUPPORTED_TASK_SPEC_VERSIONS } from '../version.js';

const supportedList = SUPPORTED_TASK_SPEC_VERSIONS.map((version) => `"${version}"`).join(', ');

export const TaskRepoSchema = v.strictObject({
  url: v.pipe(
    NonEmptyStringSchema,
    v.description('Git URL, or a local path resolved against the folder of task.yaml.'),
  ),
  commit: v.pipe(
    v.string(),
    v.check(
      (commit) => isCommitSha(commit) || isGitReferenceName(commit),
      'expected a commit sha (7 to 40 hex digits) or a git branch/tag name',
    ),
    v.description('Commit sha (7-40 hex digits) to pin; a branch or tag name is accepted but is not reproducible.'),
  ),
});
export type TaskRepo = v.InferOutput<typeof TaskRepoSchema>;

export const TaskEnvironmentSchema = v.strictObject({
  docker_image: v.pipe(
    NonEmptyStringSchema,
    v.regex(/^\S+$/, 'expected a Docker image reference without spaces'),
    v.description('Runner image, e.g. agentbench/py-runner:0.1.0.'),
  ),
  workdir: v.pipe(AbsolutePosixPathSchema, v.description('Absolute path of the workspace inside the sandbox.')),
  timeout_sec: v.pipe(PositiveIntegerSchema, v.description('Timeout of each command (setup, tests), in seconds.')),
  max_output_bytes: v.optional(described(PositiveIntegerSchema, "Bytes of stdout and of stderr kept from each command in the run's logs: the first and the last half, with a marker naming the dropped bytes between. Default 10485760 (10 MiB); --max-output-bytes overrides it.")),
  runtime: v.optional(described(RuntimeNameSchema, 'OCI runtime of the Docker sandbox, as registered with the engine: "runsc" runs the agent and the tests under gVisor (install it with `scripts/setup.sh --with-gvisor`). Setup, which needs the network, runs under runc and continues under runsc once the network is cut. Default: the engine\'s default runtime (runc); --runtime overrides it.')),
});
export type TaskEnvironment = v.InferOutput<typeof TaskEnvironmentSchema>;

export const TaskSetupSchema = v.strictObject({
  commands: v.pipe(v.array(NonEmptyStringSchema), v.description('Shell commands run in order, with network.')),
});
export type TaskSetup = v.InferOutput<typeof TaskSetupSchema>;

export const TaskRunSchema = v.strictObject({
  command: v.pipe(NonEmptyStringSchema, v.description('The test command, run without network.')),
});
export type TaskRun = v.InferOutput<typeof TaskRunSchema>;

export const TaskValidationSchema = v.strictObject({
  expected_exit_codes: v.optional(
    v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))), v.minLength(1)),
  ),
  expected_failure_regex: v.optional(RegexSourceSchema),
  expected_stdout_regex: v.optional(RegexSourceSchema),
  expected_stderr_regex: v.optional(RegexSourceSchema),
  disallowed_failure_regex: v.optional(RegexSourceSchema),
  expected_failing_tests: v.optional(v.array(NonEmptyStringSchema)),
  enforce_clean_setup: v.optional(v.boolean(), true),
});
export type TaskValidation = v.InferOutput<typeof TaskValidationSchema>;

/** The test files of a Python task, when `evaluation.protected_paths` does not name them. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = ['tests/**', '**/test_*.py', '**/*_test.py', '**/conftest.py', 'pytest.ini', 'tox.ini', 'setup.cfg'];

/** The test report of a runner other than pytest: JUnit XML written by the test command at `path`. */
export const TaskResultsSchema = v.strictObject({
  format: v.pipe(v.literal('junit'), v.description('The report format; only JUnit XML is read.')),
  path: v.pipe(
    NonEmptyStringSchema,
    v.check((file) => !file.split('/').includes('..'), 'expected a path without `..`'),
    v.description('The report file inside the sandbox: relative to the repository, or absolute.'),
  ),
});
export type TaskResults = v.InferOutput<typeof TaskResultsSchema>;

/**
 * How an agent attempt is judged: the final test runs in a fresh post-setup sandbox with the
 * agent's diff applied, minus the protected paths (the tests).
 */
export const TaskEvaluationSchema = v.strictObject({
  protected_paths: v.optional(described(v.array(NonEmptyStringSchema), 'Globs (git pathspec glob syntax, relative to the repository) of the files that are the tests. Default for Python: tests/**, **/test_*.py, **/*_test.py, **/conftest.py, pytest.ini, tox.ini, setup.cfg. The files of validation.expected_failing_tests are always protected.')),
  allow_test_changes: v.optional(
    v.pipe(v.boolean(), v.description('When true, changes to protected paths are applied and do not fail the attempt (TESTS_TAMPERED).')),
    false,
  ),
  fail_on_suspicion: v.optional(described(v.boolean(), 'When true, an agent attempt whose changes the scanners flag (test-runner configuration, code that imports or patches pytest, os._exit, startup hook files, plugin rules) fails as SUSPECTED_TAMPERING, as with --fail-on-suspicion. Default false: suspicions are recorded and shown, the verdict stands.')),
  pass_to_pass: v.optional(described(v.array(NonEmptyStringSchema), 'Test ids that must pass before and after the fix (PASS_TO_PASS), matched exactly against the test report (pytest node ids, parametrized ids included; for evaluation.results, `classname::name`). Absent: the tests that passed in the baseline\'s report. validation.expected_failing_tests is FAIL_TO_PASS.')),
  results: v.optional(described(TaskResultsSchema, "Where the test command writes its JUnit XML report, for runners other than pytest (for pytest the harness writes its own). The harness removes the file before each run and reads each named test's outcome from it.")),
});
export type TaskEvaluation = v.InferOutput<typeof TaskEvaluationSchema>;

/** One step of the scripted agent: a tool call with its arguments. */
export const ScriptedToolCallSchema = v.strictObject({
  tool: ToolNameSchema,
  args: v.optional(v.record(v.string(), v.unknown()), {}),
});
export type ScriptedToolCall = v.InferOutput<typeof ScriptedToolCallSchema>;

export const ScriptedToolCallListSchema = v.pipe(v.array(ScriptedToolCallSchema), v.minLength(1, 'expected at least one tool call'));

export const TaskAgentSchema = v.pipe(
  v.strictObject({
    entrypoint: v.pipe(NonEmptyStringSchema, v.description('Agent to run, e.g. scripted or llm_v0; the CLI can override it.')),
    max_steps: v.optional(PositiveIntegerSchema),
    script: v.optional(ScriptedToolCallListSchema),
    script_file: v.optional(
      v.pipe(
        NonEmptyStringSchema,
        v.check((path) => !path.startsWith('/'), 'expected a path relative to the task file'),
        v.description('YAML or JSON list of {tool, args}, relative to the task file.'),
      ),
    ),
  }),
  v.forward(
    v.check((agent) => agent.script === undefined || agent.script_file === undefined, 'expected either `script` or `script_file`, not both'),
    ['script_file'],
  ),
);
export type TaskAgent = v.InferOutput<typeof TaskAgentSchema>;

/** `task.yaml`, task spec 1.0. Unknown keys are errors at every level. */
export const TaskSchema = v.pipe(
  v.strictObject({
    task_spec_version: v.picklist(
      SUPPORTED_TASK_SPEC_VERSIONS,
      `expected a supported task spec version: ${supportedList}`,
    ),
    id: v.pipe(SafeIdentifierSchema, v.description('Task identifier, unique in its suite; used in artifact paths.')),
    suite: v.pipe(SafeIdentifierSchema, v.description('Suite the task belongs to.')),
    repo: TaskRepoSchema,
    environment: TaskEnvironmentSchema,
    setup: v.optional(TaskSetupSchema, { commands: [] }),
    run: TaskRunSchema,
    validation: v.optional(TaskValidationSchema),
    evaluation: v.optional(TaskEvaluationSchema),
    agent: v.optional(TaskAgentSchema),
    labels: v.optional(v.array(NonEmptyStringSchema), []),
    harness_min_version: v.optional(
      v.pipe(
        SemverSchema,
        v.check(
          // A malformed version is already reported by SemverSchema; only compare well-formed ones.
          (version) => parseSemver(version) === undefined || compareSemver(version, HARNESS_VERSION) <= 0,
          `expected a version at most ${HARNESS_VERSION} (this harness); upgrade AgentBench to run this task`,
        ),
      ),
    ),
  }),
  v.metadata({ title: 'AgentBench task (task.yaml, spec 1.0)' }),
);
export type Task = v.InferOutput<typeof TaskSchema>;
export type TaskInput = v.InferInput<typeof TaskSchema>;
