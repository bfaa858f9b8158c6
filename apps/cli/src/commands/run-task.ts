import type { CommandModule } from 'yargs';
import { EXIT_CODE_INTERRUPTED, formatDuration, interruptOnSignals, runTask, sandboxFactoryFor, withRuntime } from '@agentbench/harness';
import { formatIssue, loadTask } from '@agentbench/schemas';
import { backendOption } from '../backend-option.js';
import { runtimeArgument, runtimeOption } from '../runtime-option.js';
import { ARTIFACT_BUDGET_OPTION, artifactBudgetArgument, runDiskUseLine } from '../artifact-budget-option.js';
import { MAX_OUTPUT_BYTES_OPTION, maxOutputBytesArgument, terminalMessage } from '../output-options.js';
import { jsonOption } from '../json-option.js';
import { artifactsFolderOption } from '../artifacts-folder-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface RunTaskArguments {
  task: string;
  out: string;
  json: boolean;
  'max-output-bytes': number | undefined;
  'artifact-budget': string | undefined;
  backend: string;
  runtime: string | undefined;
}

export const runTaskCommand: CommandModule<object, RunTaskArguments> = {
  ...COMMAND_SUMMARIES['run-task'],
  builder: (yargs) =>
    yargs
      .positional('task', { type: 'string', demandOption: true, describe: 'The task.yaml to run' })
      .option('out', artifactsFolderOption('the run goes to OUT/runs/<timestamp>__<ulid>/'))
      .option('json', jsonOption('Print the attempt record as JSON'))
      .option('max-output-bytes', MAX_OUTPUT_BYTES_OPTION)
      .option('artifact-budget', ARTIFACT_BUDGET_OPTION)
      .option('backend', backendOption())
      .option('runtime', runtimeOption())
      .example('$0 run-task tasks/custom-dev/toy_fail_pytest/task.yaml', 'Run the toy task; its tests fail (exit 1)'),
  handler: async (argv) => {
    const maxOutputBytes = maxOutputBytesArgument(argv['max-output-bytes']);
    const artifactBudget = artifactBudgetArgument(argv['artifact-budget']);
    const runtime = runtimeArgument(argv.runtime, argv.backend);
    const loaded = await loadTask(argv.task);
    for (const warning of loaded.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    let result;
    try {
      result = await runTask(loaded, {
        outDir: argv.out,
        signal: controller.signal,
        ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
        artifactBudget,
        createSandbox: withRuntime(sandboxFactoryFor(argv.backend), runtime),
        ...(argv.json ? {} : { onStage: (stage: string) => process.stderr.write(`${loaded.task.id}: ${stage}\n`) }),
      });
    } finally {
      removeHandlers();
    }
    const { outcome } = result;
    if (argv.json) {
      process.stdout.write(`${JSON.stringify({ run_dir: result.runDir, record: outcome.record }, null, 2)}\n`);
    } else {
      const verdict = outcome.isSuccess ? 'PASSED' : `FAILED ${outcome.failureReason ?? ''}`.trim();
      process.stdout.write(`${loaded.task.id}: ${verdict} in ${formatDuration(outcome.timings.totalMs)}: ${terminalMessage(outcome.message)}\n`);
      process.stdout.write(`run: ${result.runDir}\n`);
      process.stdout.write(`${await runDiskUseLine(result.runDir, artifactBudget)}\n`);
    }
    process.exitCode = outcome.failureReason === 'INTERRUPTED' ? EXIT_CODE_INTERRUPTED : outcome.isSuccess ? 0 : 1;
  },
};
