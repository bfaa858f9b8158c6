import { readFile } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import { createDockerSandbox, interruptOnSignals, runModelBenchmark, withRuntime, type BenchProgressEvent } from '@agentbench/harness';
import { formatBenchTable, summarizeModelBenchmark } from '@agentbench/report';
import { formatIssue } from '@agentbench/schemas';
import { UsageError } from '../usage-error.js';
import { runtimeArgument, runtimeOption } from '../runtime-option.js';

export interface BenchModelsArguments {
  task?: string;
  suite?: string;
  tasks: string;
  models: string;
  runs: number;
  j: number;
  'per-provider'?: number;
  probe: boolean;
  variant: string;
  'max-steps'?: number;
  out?: string;
  'include-flaky': boolean;
  json: boolean;
  runtime: string | undefined;
}

function describeProgress(event: Exclude<BenchProgressEvent, { type: 'task-warning' }>): string {
  switch (event.type) {
    case 'probe':
      return `probe ${event.model}: ${event.outcome.isAnswering ? 'ok' : `no answer, dropped (${event.outcome.message})`}`;
    case 'attempt-started':
      return `${event.model}: ${event.task} #${event.repeat} started`;
    case 'attempt-finished':
      return `${event.model}: ${event.task} #${event.repeat} ${event.error === undefined ? 'finished' : `failed to run: ${event.error}`}`;
  }
}

export const benchModelsCommand: CommandModule<object, BenchModelsArguments> = {
  command: 'bench-models',
  describe: 'Run the same tasks across several models and compare them (pass rate, pass@k, steps, tokens, cost, time, failures)',
  builder: (yargs) =>
    yargs
      .option('task', { type: 'string', describe: 'One task.yaml' })
      .option('suite', { type: 'string', describe: 'A suite (folder under --tasks)' })
      .option('tasks', { type: 'string', default: 'tasks', describe: 'Folder that holds the suites' })
      .option('models', { type: 'string', demandOption: true, describe: 'A models.txt (one per line, # comments) or a comma-separated list' })
      .option('runs', { type: 'number', default: 1, describe: 'Attempts per task and model (K of pass@k)' })
      .option('j', { type: 'number', default: 2, describe: 'Attempts in flight at once, across models and tasks' })
      .option('per-provider', { type: 'number', describe: 'Attempts in flight at once per provider (the part of the model name before "/"); default: -j' })
      .option('probe', { type: 'boolean', default: false, describe: 'Call each model once first and drop the ones that do not answer' })
      .option('variant', { type: 'string', default: 'llm', describe: 'The agent; it gets each model as --model' })
      .option('max-steps', { type: 'number', describe: "Tool calls allowed (default: the task's agent.max_steps)" })
      .option('out', { type: 'string', describe: 'Benchmark folder (default artifacts/bench/<timestamp>); one folder per model inside' })
      .option('include-flaky', { type: 'boolean', default: false, describe: 'With --suite: also run tasks labelled flaky' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the summary JSON instead of the table' })
      .option('runtime', runtimeOption())
      .check((argv) => {
        if ((argv.task === undefined) === (argv.suite === undefined)) throw new UsageError('name exactly one of --task TASK.yaml or --suite SUITE');
        return true;
      })
      .example('$0 bench-models --task tasks/custom-dev/toy_fail_pytest/task.yaml --models scripts/models.txt --probe', 'Every model of models.txt on one task')
      .example('$0 bench-models --suite custom-dev --models openai/gpt-4o,anthropic/claude-3.5-sonnet --runs 5 -j 4', 'pass@5 of two models on a suite'),
  handler: async (argv) => {
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    const maxSteps = argv['max-steps'];
    const perProvider = argv['per-provider'];
    const runtime = runtimeArgument(argv.runtime);
    let run;
    try {
      run = await runModelBenchmark({
        models: argv.models,
        ...(argv.task === undefined ? { suite: argv.suite as string, tasksDir: argv.tasks, includeFlaky: argv['include-flaky'] } : { task: argv.task }),
        runs: argv.runs,
        concurrency: argv.j,
        ...(perProvider === undefined ? {} : { perProviderConcurrency: perProvider }),
        ...(argv.out === undefined ? {} : { outDir: argv.out }),
        probe: argv.probe,
        variant: argv.variant,
        ...(maxSteps === undefined ? {} : { maxSteps }),
        ...(runtime === undefined ? {} : { createSandbox: withRuntime(createDockerSandbox, runtime) }),
        signal: controller.signal,
        onProgress: (event) => {
          // Warnings always go to stderr; progress lines only with the table.
          if (event.type === 'task-warning') process.stderr.write(`warning: ${formatIssue(event.issue)}\n`);
          else if (!argv.json) process.stderr.write(`${describeProgress(event)}\n`);
        },
      });
    } finally {
      removeHandlers();
    }
    const result = await summarizeModelBenchmark(run);
    if (argv.json) process.stdout.write(await readFile(result.summaryFile, 'utf8'));
    else process.stdout.write(formatBenchTable(result));
    if (result.entries.every((entry) => entry.summary === null)) process.exitCode = 1;
  },
};
