import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { createLlmClient, resolveLlmConfig } from '@agentbench/agent-loop';
import { DEFAULT_SKIP_LABELS, interruptOnSignals, loadMirrorMap, RepoCache, runAgentAttempt } from '@agentbench/harness';
import { timestampForPath } from '@agentbench/schemas/internal';
import { formatBenchTable, parseModelList, runModelBenchmark, type BenchProgressEvent, type ProbeOutcome } from '@agentbench/report';
import { formatIssue, loadSuite, loadTask, readInputText, type LoadedTask } from '@agentbench/schemas';
import { UsageError } from '../usage-error.js';

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
}

/** A cheap call: does the model answer at all (key, name, quota)? */
async function probeModel(model: string, signal?: AbortSignal): Promise<ProbeOutcome> {
  const config = resolveLlmConfig({ model, maxRetries: 0, timeoutMs: 30_000 });
  const client = createLlmClient({ ...config.client, sampling: { maxOutputTokens: 16 } });
  const response = await client.complete({ messages: [{ role: 'user', content: 'Reply with the single word OK.' }], ...(signal === undefined ? {} : { signal }) });
  return { isAnswering: true, message: `answered ${JSON.stringify((response.text ?? '').slice(0, 40))}` };
}

async function readModels(value: string): Promise<string[]> {
  // A path to a models.txt, or the names themselves.
  // Read like every input file: a regular file, bounded, UTF-8 text (a FIFO or /dev/zero is refused).
  if (existsSync(value)) return parseModelList(await readInputText(value), value);
  return parseModelList(value, '--models');
}

function describeProgress(event: BenchProgressEvent): string {
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
      .check((argv) => {
        if ((argv.task === undefined) === (argv.suite === undefined)) throw new UsageError('name exactly one of --task TASK.yaml or --suite SUITE');
        return true;
      })
      .example('$0 bench-models --task tasks/custom-dev/toy_fail_pytest/task.yaml --models scripts/models.txt --probe', 'Every model of models.txt on one task')
      .example('$0 bench-models --suite custom-dev --models openai/gpt-4o,anthropic/claude-3.5-sonnet --runs 5 -j 4', 'pass@5 of two models on a suite'),
  handler: async (argv) => {
    const models = await readModels(argv.models);
    let tasks: LoadedTask[];
    if (argv.task !== undefined) {
      tasks = [await loadTask(argv.task)];
    } else {
      const suite = await loadSuite(argv.tasks, argv.suite as string);
      const skipped = argv['include-flaky'] ? [] : DEFAULT_SKIP_LABELS;
      tasks = suite.tasks.filter((loaded) => !loaded.task.labels.some((label) => skipped.includes(label)));
    }
    for (const warning of tasks.flatMap((loaded) => loaded.warnings)) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    const outDir = argv.out ?? path.join('artifacts', 'bench', timestampForPath());
    const mirrors = await loadMirrorMap();
    const cache = new RepoCache();
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    const maxSteps = argv['max-steps'];
    const perProvider = argv['per-provider'];
    let result;
    try {
      result = await runModelBenchmark({
        models,
        tasks,
        taskName: (loaded) => loaded.task.id,
        runs: argv.runs,
        concurrency: argv.j,
        ...(perProvider === undefined ? {} : { perProviderConcurrency: perProvider }),
        outDir,
        signal: controller.signal,
        ...(argv.probe ? { probe: probeModel } : {}),
        // Each attempt's baseline is skipped: validate the suite once with `ab validate-suite`.
        runAttempt: async ({ task, model, outDir: modelDir, signal }) => {
          await runAgentAttempt({
            task,
            mirrors,
            cache,
            variant: argv.variant,
            model,
            outDir: modelDir,
            skipBaseline: true,
            ...(maxSteps === undefined ? {} : { maxSteps }),
            ...(signal === undefined ? {} : { signal }),
          });
        },
        ...(argv.json ? {} : { onProgress: (event: BenchProgressEvent) => process.stderr.write(`${describeProgress(event)}\n`) }),
      });
    } finally {
      removeHandlers();
    }
    if (argv.json) process.stdout.write(await readFile(result.summaryFile, 'utf8'));
    else process.stdout.write(formatBenchTable(result));
    if (result.entries.every((entry) => entry.summary === null)) process.exitCode = 1;
  },
};
