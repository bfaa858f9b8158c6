import type { Argv, CommandModule } from 'yargs';
import { detectFileKind, readInputFile } from '@agentbench/schemas';
import {
  applyEnvironment,
  formatMatrixDryRun,
  formatMatrixSummary,
  formatPlan,
  formatRunSummary,
  loadEnvFile,
  parseAgentOption,
  planScenario,
  runMatrix,
  runScenario,
  type AgentSpec,
  type MatrixProgressEvent,
  type ScenarioRunEvent,
} from '@agentbench/scenario-runner';
import { terminalMessage } from '../output-options.js';
import { WrongFileKindError } from '../wrong-file-kind-error.js';
import { PLUGIN_OPTION } from '../plugin-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface SharedArguments {
  live: boolean;
  'env-file'?: string;
  agent?: string;
  model?: string;
  out?: string;
  seed?: number;
  plugin?: string[];
  'dry-run': boolean;
  verbose: boolean;
}

interface RunArguments extends SharedArguments {
  file: string;
}

interface MatrixArguments extends SharedArguments {
  config: string;
  parallel: number;
  filter?: string;
  resume?: string;
}

function sharedOptions<T>(yargs: Argv<T>) {
  return yargs
    .option('live', { type: 'boolean', default: false, describe: 'Ignore every mock: services answer for real' })
    .option('env-file', { type: 'string', describe: 'Load variables from this .env file for the run only' })
    .option('agent', { type: 'string', describe: 'Agent under test: llm, llm:MODEL, http:BASE_URL, command:COMMAND (default: the file\'s, else llm)' })
    .option('model', { type: 'string', describe: 'Model of the llm or http agent' })
    .option('out', { type: 'string', describe: 'Folder for the results (default under artifacts/)' })
    .option('seed', { type: 'number', describe: 'Seed of mock probabilities and mock scripts (default: random, printed)' })
    .option('plugin', PLUGIN_OPTION)
    .option('dry-run', { type: 'boolean', default: false, describe: 'Validate and plan without running anything or calling a model' });
}

function agentOption(argv: SharedArguments): AgentSpec | undefined {
  if (argv.agent === undefined) return argv.model === undefined ? undefined : { type: 'llm', model: argv.model };
  return parseAgentOption(argv.agent, argv.model === undefined ? {} : { model: argv.model });
}

/** Loads `--env-file` into the process for the duration of `work` and restores it after. */
async function withEnvFile<Result>(file: string | undefined, work: (env: Record<string, string>) => Promise<Result>): Promise<Result> {
  if (file === undefined) return work({});
  const variables = await loadEnvFile(file);
  const restore = applyEnvironment(variables);
  try {
    return await work(variables);
  } finally {
    restore();
  }
}

function printRunEvent(event: ScenarioRunEvent, isVerbose: boolean, prefix = ''): void {
  switch (event.type) {
    case 'warning':
      process.stderr.write(`${prefix}warning: ${terminalMessage(event.message)}\n`);
      return;
    case 'note':
    case 'debug':
      process.stderr.write(`${prefix}${terminalMessage(event.message)}\n`);
      return;
    case 'step-started':
      if (isVerbose) process.stderr.write(`${prefix}run[${event.step}] ${event.name} (${event.kind})...\n`);
      return;
    case 'step-finished':
      if (isVerbose) process.stderr.write(`${prefix}run[${event.step}] ${event.status} in ${event.durationMs} ms\n`);
      return;
  }
}

/**
 * A matrix file given to `scenario run` would fail with four schema errors about keys a scenario
 * lacks; say which command runs it instead. Known by its name (`*.matrix.yaml`) or top-level keys.
 */
async function refuseMatrixFile(file: string): Promise<void> {
  // The one bounded reader: a FIFO or a device is refused by kind, never read (it would block).
  const { text } = await readInputFile(file);
  if (text === undefined) return; // runScenario reports a missing, unreadable or refused file.
  let kind: ReturnType<typeof detectFileKind>;
  try {
    kind = detectFileKind(file, text);
  } catch {
    return; // Not YAML: runScenario reports where.
  }
  if (kind === 'matrix') throw new WrongFileKindError(file, `${file} is a matrix file: run it with \`ab scenario matrix ${file}\``);
}

function pluginOptions(argv: SharedArguments): { fromCli: string[] } | undefined {
  return argv.plugin === undefined || argv.plugin.length === 0 ? undefined : { fromCli: argv.plugin };
}

const runCommand: CommandModule<object, RunArguments> = {
  command: 'run <file>',
  describe: 'Run one scenario file: exit 0 when it passes, 1 when it fails',
  builder: (yargs) =>
    sharedOptions(yargs)
      .positional('file', { type: 'string', demandOption: true, describe: 'The .scenario.yaml file' })
      .example('$0 scenario run fixtures/scenarios/greeting.scenario.yaml --seed 7', 'Run a scenario with our LLM agent')
      .example('$0 scenario run scenario.yaml --dry-run', 'Validate and show the plan: provider, agent, plugins, evaluators')
      .example('$0 scenario run scenario.yaml --agent "command:python3 agent.py"', 'Evaluate your own program') as unknown as Argv<RunArguments>,
  handler: async (argv) => {
    await refuseMatrixFile(argv.file);
    const agent = agentOption(argv);
    const plugins = pluginOptions(argv);
    if (argv['dry-run']) {
      const plan = await planScenario(argv.file, { isLive: argv.live, ...(agent === undefined ? {} : { agent }), ...(plugins === undefined ? {} : { plugins }) });
      process.stdout.write(`${formatPlan(plan)}\n`);
      process.exitCode = plan.errors.length > 0 ? 1 : 0;
      return;
    }
    const result = await withEnvFile(argv['env-file'], (env) =>
      runScenario(argv.file, {
        isLive: argv.live,
        env,
        ...(argv['env-file'] === undefined ? {} : { envFile: argv['env-file'] }),
        ...(agent === undefined ? {} : { agent }),
        ...(argv.out === undefined ? {} : { outDir: argv.out }),
        ...(argv.seed === undefined ? {} : { seed: argv.seed }),
        ...(plugins === undefined ? {} : { plugins }),
        onEvent: (event) => printRunEvent(event, argv.verbose),
      }),
    );
    process.stdout.write(`${formatRunSummary(result, { isVerbose: argv.verbose })}\n`);
    process.exitCode = result.passed ? 0 : 1;
  },
};

function printMatrixProgress(event: MatrixProgressEvent, isVerbose: boolean): void {
  switch (event.type) {
    case 'matrix-started':
      process.stderr.write(`matrix: ${event.combinations} combinations, ${event.total} runs -> ${event.outputDir}\n`);
      return;
    case 'run-started':
      if (isVerbose) process.stderr.write(`[start ${event.index + 1}/${event.total}] ${event.combination.id} r${event.repeat}: ${event.combination.label}\n`);
      return;
    case 'run-finished': {
      const label = event.record.passed ? 'PASS' : event.record.status === 'errored' ? 'ERROR' : 'FAIL';
      const why = event.record.error === undefined || !isVerbose ? '' : ` (${terminalMessage(event.record.error)})`;
      process.stderr.write(`[${event.done}/${event.total}] ${event.record.combination} r${event.record.repeat} ${label} ${(event.record.duration_ms / 1000).toFixed(1)} s${why}\n`);
      return;
    }
    case 'run-event':
      if (isVerbose || event.event.type === 'warning') printRunEvent(event.event, isVerbose, `  ${event.combination} r${event.repeat}: `);
      return;
  }
}

const matrixCommand: CommandModule<object, MatrixArguments> = {
  command: 'matrix <config>',
  describe: 'Run a base scenario over every combination of a matrix file, with repeats and an aggregate',
  builder: (yargs) =>
    sharedOptions(yargs)
      .positional('config', { type: 'string', demandOption: true, describe: 'The .matrix.yaml file' })
      .option('parallel', { type: 'number', default: 1, describe: 'Runs at once' })
      .option('filter', { type: 'string', describe: 'Only combinations whose "parameter=value" label contains this (or matches /regex/)' })
      .option('resume', { type: 'string', describe: 'Continue the matrix run in this folder (after a stop or kill -9): finished runs are kept, the rest run with their planned seeds' })
      .example('$0 scenario matrix fixtures/scenarios/greeting.matrix.yaml --parallel 4', 'Run every combination, four at a time')
      .example('$0 scenario matrix m.matrix.yaml --dry-run --filter GitHub', 'List the matching combinations and the plan') as unknown as Argv<MatrixArguments>,
  handler: async (argv) => {
    const agent = agentOption(argv);
    const plugins = pluginOptions(argv);
    const common = {
      isLive: argv.live,
      parallel: argv.parallel,
      ...(argv.filter === undefined ? {} : { filter: argv.filter }),
      ...(agent === undefined ? {} : { agent }),
      ...(plugins === undefined ? {} : { plugins }),
    };
    if (argv['dry-run']) {
      const dryRun = await runMatrix(argv.config, { ...common, isDryRun: true });
      process.stdout.write(`${formatMatrixDryRun(dryRun)}\n`);
      process.exitCode = dryRun.plan.errors.length > 0 ? 1 : 0;
      return;
    }
    const summary = await withEnvFile(argv['env-file'], (env) =>
      runMatrix(argv.config, {
        ...common,
        env,
        ...(argv['env-file'] === undefined ? {} : { envFile: argv['env-file'] }),
        ...(argv.out === undefined ? {} : { outDir: argv.out }),
        ...(argv.resume === undefined ? {} : { resumeDir: argv.resume }),
        ...(argv.seed === undefined ? {} : { seed: argv.seed }),
        onProgress: (event) => printMatrixProgress(event, argv.verbose),
      }),
    );
    process.stdout.write(`${formatMatrixSummary(summary)}\n`);
    // A matrix measures reliability: failed runs are results; only runs that errored make the command fail.
    process.exitCode = summary.overall.errored > 0 ? 1 : 0;
  },
};

/** `ab scenario run FILE` and `ab scenario matrix CONFIG`: thin wrappers over @agentbench/scenario-runner. */
export const scenarioCommand: CommandModule<object, object> = {
  ...COMMAND_SUMMARIES.scenario,
  builder: (yargs) =>
    yargs
      .command(runCommand as unknown as CommandModule<object, object>)
      .command(matrixCommand as unknown as CommandModule<object, object>)
      .demandCommand(1, 'Name a scenario command: run or matrix'),
  handler: () => undefined,
};
