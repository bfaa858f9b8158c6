import type { CommandModule } from 'yargs';
import {
  EXIT_CODE_INTERRUPTED,
  createSuiteProgressReporter,
  defaultConcurrency,
  formatSuiteSummary,
  formatSuiteValidity,
  interruptOnSignals,
  validateSuite,
  type WorkspaceRetention,
} from '@agentbench/harness';
import { createOracleAgentIfAny } from '@agentbench/swebench';
import { UsageError } from '../usage-error.js';
import { runtimeArgument, runtimeOption } from '../runtime-option.js';
import { ARTIFACT_BUDGET_OPTION, artifactBudgetArgument, runDiskUseLine } from '../artifact-budget-option.js';
import { MAX_OUTPUT_BYTES_OPTION, maxOutputBytesArgument } from '../output-options.js';
import { ENGINES_OPTION, enginesArgument } from '../engines-option.js';
import { START_ORDER_OPTION, type StartOrder } from '../start-order-option.js';
import { jsonOption } from '../json-option.js';
import { artifactsFolderOption } from '../artifacts-folder-option.js';
import { INCLUDE_FLAKY_OPTION, SUITE_POSITIONAL, TASKS_FOLDER_OPTION } from '../suite-options.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ValidateSuiteArguments {
  suite: string;
  tasks: string;
  out: string;
  'include-flaky': boolean;
  jobs: number;
  resume?: string;
  'keep-workspaces': WorkspaceRetention;
  order: StartOrder;
  json: boolean;
  'max-output-bytes': number | undefined;
  'artifact-budget': string | undefined;
  runtime: string | undefined;
  engines?: string;
  'oracle-runs': number | undefined;
}

export const validateSuiteCommand: CommandModule<object, ValidateSuiteArguments> = {
  ...COMMAND_SUMMARIES['validate-suite'],
  builder: (yargs) =>
    yargs
      .positional('suite', SUITE_POSITIONAL)
      .option('tasks', TASKS_FOLDER_OPTION)
      .option('out', artifactsFolderOption('the run goes to OUT/runs/<timestamp>__<suite>__baseline/'))
      .option('include-flaky', INCLUDE_FLAKY_OPTION)
      .option('jobs', { alias: 'j', type: 'number', default: defaultConcurrency(), describe: 'Tasks validated at once' })
      .option('resume', { type: 'string', describe: 'Continue an interrupted run: only tasks without a final record run' })
      .option('keep-workspaces', { choices: ['all', 'failed', 'none'] as const, default: 'failed' as const, describe: 'Workspaces kept after each task' })
      .option('order', START_ORDER_OPTION)
      .option('json', jsonOption('Print the result as JSON instead of a table'))
      .option('max-output-bytes', MAX_OUTPUT_BYTES_OPTION)
      .option('artifact-budget', ARTIFACT_BUDGET_OPTION)
      .option('runtime', runtimeOption())
      .option('engines', ENGINES_OPTION)
      .option('oracle-runs', {
        type: 'number',
        describe:
          "Also check each task N times: apply its reference patch (gold.patch beside task.yaml) N times, which must pass every time, and rerun the baseline N times, which must fail every time. Tasks that do not (oracle-does-not-apply, oracle-flaky, oracle-fails, baseline-flaky, baseline-passes, setup-failed, baseline-timeout, no-oracle, errored) are flagged and the command exits 1; validity.json holds the verdicts",
      })
      .example('$0 validate-suite custom-dev', 'Validate the bundled toy suite')
      .example('$0 validate-suite custom-dev --oracle-runs 3', 'Also check that every reference patch passes 3 times out of 3 and every baseline fails 3 times out of 3')
      .example('$0 validate-suite custom-dev --resume artifacts/runs/2025-01-31_12-00-00__custom-dev__baseline', 'Finish an interrupted run'),
  handler: async (argv) => {
    if (!Number.isInteger(argv.jobs) || argv.jobs < 1) throw new UsageError(`-j/--jobs: expected a whole number of at least 1, found ${String(argv.jobs)}`);
    const oracleRuns = argv['oracle-runs'];
    if (oracleRuns !== undefined && (!Number.isInteger(oracleRuns) || oracleRuns < 1)) throw new UsageError(`--oracle-runs: expected a whole number of at least 1, found ${String(oracleRuns)}`);
    const maxOutputBytes = maxOutputBytesArgument(argv['max-output-bytes']);
    const artifactBudget = artifactBudgetArgument(argv['artifact-budget']);
    const runtime = runtimeArgument(argv.runtime);
    const engines = await enginesArgument(argv.engines);
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    // A terminal gets one status line redrawn in place; CI logs and files get one line per task.
    const isInteractive = process.stderr.isTTY === true && process.env['CI'] === undefined;
    const reporter = createSuiteProgressReporter({ stream: process.stderr, isInteractive });
    let result;
    try {
      result = await validateSuite({
        suite: argv.suite,
        tasksDir: argv.tasks,
        outDir: argv.out,
        includeFlaky: argv['include-flaky'],
        concurrency: argv.jobs,
        keepWorkspaces: argv['keep-workspaces'],
        order: argv.order,
        signal: controller.signal,
        onEvent: reporter.onEvent,
        ...(argv.resume === undefined ? {} : { resumeDir: argv.resume }),
        ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
        artifactBudget,
        ...(runtime === undefined ? {} : { runtime }),
        ...(engines === undefined ? {} : { engines, onEngineLost: (taskId: string, reason: string) => process.stderr.write(`${taskId}: ${reason}\n`) }),
        ...(oracleRuns === undefined ? {} : { oracleRuns, referenceAgentFor: (task) => createOracleAgentIfAny({ task }) }),
      });
    } finally {
      reporter.stop();
      removeHandlers();
    }
    if (argv.json) {
      const tasks = result.tasks.map((task) => ({ task_id: task.taskId, status: task.status, failure_reason: task.record?.result.failure_reason ?? null, message: task.outcome?.message ?? null }));
      process.stdout.write(`${JSON.stringify({ run_dir: result.runDir, run: result.runRecord, tasks, ...(result.validity === undefined ? {} : { validity: result.validity }) }, null, 2)}\n`);
    } else {
      process.stdout.write(formatSuiteSummary(result, { suite: argv.suite, resumeCommand: `ab validate-suite ${argv.suite} --tasks ${argv.tasks} --resume ${result.runDir}` }));
      if (result.validity !== undefined) process.stdout.write(formatSuiteValidity(result.validity));
      process.stdout.write(`${await runDiskUseLine(result.runDir, artifactBudget)}\n`);
    }
    // With --oracle-runs a flagged task fails the command too: it is never kept silently.
    const isAllValid = result.tasks.every((task) => task.status === 'valid' || task.status === 'skipped') && (result.validity === undefined || result.validity.valid === result.validity.total);
    process.exitCode = result.isInterrupted ? EXIT_CODE_INTERRUPTED : isAllValid ? 0 : 1;
  },
};
