import { readFile } from 'node:fs/promises';
import type { Argv, CommandModule } from 'yargs';
import { EXIT_CODE_INTERRUPTED, formatRunProgress, interruptOnSignals, runModelBenchmark, type BenchProgressEvent } from '@agentbench/harness';
import { formatBenchTable, summarizeModelBenchmark } from '@agentbench/report';
import { formatIssue } from '@agentbench/schemas';
import { ENGINES_OPTION, enginesArgument } from '../engines-option.js';
import { runtimeArgument, runtimeOption } from '../runtime-option.js';
import { UsageError } from '../usage-error.js';
import { AGENT_OPTION, agentArgument, INSTRUCTION_TEMPLATE_OPTION } from '../agent-option.js';
import { FAIL_ON_SUSPICION_OPTION, SCANNER_OPTION } from '../scanner-options.js';
import { jsonOption } from '../json-option.js';
import { START_ORDER_OPTION, type StartOrder } from '../start-order-option.js';
import { MAX_STEPS_OPTION } from '../max-steps-option.js';
import { INCLUDE_FLAKY_OPTION, TASKS_FOLDER_OPTION } from '../suite-options.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface RunArguments {
  task?: string;
  suite?: string;
  tasks: string;
  'include-flaky': boolean;
  variant?: string;
  agent?: string;
  'instruction-template'?: string;
  models?: string;
  runs?: number;
  j: string;
  'max-jobs'?: number;
  order: StartOrder;
  'per-provider'?: number;
  retries?: number;
  'max-steps'?: number;
  'validate-baseline'?: boolean;
  'include-unvalidated'?: boolean;
  out?: string;
  resume?: string;
  probe: boolean;
  runtime?: string;
  engines?: string;
  scanner?: string[];
  'fail-on-suspicion': boolean;
  json: boolean;
}

/** `-j N` or `-j auto`. */
export function parseJobs(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`-j: expected a whole number ≥ 1 or "auto", found "${value}"`);
  return jobs;
}

/** The flags of `ab run`, shared with its alias `ab bench-models`. */
export function runOptions<T>(yargs: Argv<T>): Argv<RunArguments> {
  return yargs
    .option('task', { type: 'string', describe: 'One task.yaml' })
    .option('suite', { type: 'string', describe: 'A suite (folder under --tasks); its tasks labelled flaky are left out unless --include-flaky' })
    .option('tasks', TASKS_FOLDER_OPTION)
    .option('include-flaky', INCLUDE_FLAKY_OPTION)
    .option('variant', { type: 'string', describe: 'The agent: scripted, llm, a .js/.mjs path or a package (default: scripted without --models, llm with)' })
    .option('agent', AGENT_OPTION)
    .option('instruction-template', {
      ...INSTRUCTION_TEMPLATE_OPTION,
      describe: `${INSTRUCTION_TEMPLATE_OPTION.describe}. The run's plan records it with its content hash: --resume reuses it when the flag is left out, and refuses another template or one edited since`,
    })
    .option('models', { type: 'string', describe: 'A models.txt (one per line, # comments) or a comma-separated list; one model is the common case' })
    .option('runs', { type: 'number', describe: 'Attempts per task and model (K of pass@k); default 1' })
    .option('j', { type: 'string', default: '2', describe: 'Attempts in flight: a number, or "auto" (grow while the host keeps up: memory, sandbox create latency, infrastructure failures)' })
    .option('max-jobs', { type: 'number', describe: 'Ceiling of -j auto (default: twice the cores)' })
    .option('order', START_ORDER_OPTION)
    .option('per-provider', { type: 'number', describe: 'Attempts in flight per provider (the part of the model name before "/"); default: -j' })
    .option('retries', { type: 'number', describe: 'Tries again after an infrastructure failure (engine, sandbox create, LLM endpoint), with backoff; default 2. Task and agent failures are never retried' })
    .option('max-steps', MAX_STEPS_OPTION)
    .option('validate-baseline', {
      type: 'boolean',
      describe: "Validate each task's baseline before its attempt (default: skipped, each task's validity is read from the latest ab validate-suite run of its suite in artifacts/runs; a task never validated is run with a warning and reported as unvalidated)",
    })
    .option('include-unvalidated', {
      type: 'boolean',
      describe: 'Count attempts of tasks whose baseline was not shown to fail in pass rates (default: left out, marked "unverified task" in every report)',
    })
    .option('out', { type: 'string', describe: 'The run folder (default artifacts/runs/<timestamp>): run.json, attempts.jsonl, one folder per model' })
    .option('resume', { type: 'string', describe: 'Continue the run in this folder: only attempts without a final try run; other plan flags must match the run or be left out' })
    .option('probe', { type: 'boolean', default: false, describe: 'Call each model once first and drop the ones that do not answer' })
    .option('runtime', runtimeOption())
    .option('engines', {
      ...ENGINES_OPTION,
      describe: `${ENGINES_OPTION.describe}. Each try goes to the engine with the most free capacity (named in its record); at most min(-j, the capacities' sum) attempts run at once; a try lost to an engine that stops answering is an infrastructure failure, retried (--retries) on the others`,
    })
    .option('scanner', SCANNER_OPTION)
    .option('fail-on-suspicion', FAIL_ON_SUSPICION_OPTION)
    .option('json', jsonOption('Print the summary JSON instead of the table; progress as plain lines on stderr'))
    .check((argv) => {
      if (argv.task !== undefined && argv.suite !== undefined) throw new UsageError('name one of --task TASK.yaml or --suite SUITE, not both');
      if (argv.task === undefined && argv.suite === undefined && argv.resume === undefined) throw new UsageError('name --task TASK.yaml or --suite SUITE (or --resume RUN_DIR)');
      agentArgument(argv.agent, argv.variant, argv['instruction-template'], { isResume: argv.resume !== undefined });
      if (argv.resume !== undefined && argv.out !== undefined) throw new UsageError('--resume RUN_DIR is the run folder: leave --out out');
      parseJobs(argv.j);
      return true;
    }) as unknown as Argv<RunArguments>;
}

type DescribedEvent = Exclude<BenchProgressEvent, { type: 'task-warning' } | { type: 'validity-warning' } | { type: 'progress' }>;

function describeEvent(event: DescribedEvent): string {
  switch (event.type) {
    case 'probe':
      return `probe ${event.model}: ${event.outcome.isAnswering ? 'ok' : `no answer, dropped (${event.outcome.message})`}`;
    case 'image-sent':
      return `sent ${event.image} to ${event.engine}: ${Math.round(event.bytes / 1_000_000)} MB in ${(event.durationMs / 1000).toFixed(1)} s`;
    case 'run-started':
      return `${event.isResumed ? 'resuming' : 'run'} ${event.runDir}: ${formatRunProgress(event.progress)}`;
    case 'try-started':
      return `${event.attempt.attemptId} try ${event.try} started${event.engine === undefined ? '' : ` on ${event.engine}`}`;
    case 'try-finished': {
      const { record } = event;
      const outcome = record.result.passed ? 'passed' : `${record.result.failure_reason ?? 'failed'} (${record.failure_class ?? 'agent'})`;
      const where = record.engine === undefined || record.engine === null ? '' : ` on ${record.engine}`;
      const lost = record.engine_unreachable === undefined ? '' : `: ${record.engine_unreachable}`;
      return `${event.attempt.attemptId} try ${event.try}${where} ${outcome}${lost}${event.willRetry ? ', retrying' : record.errored === true ? ', errored' : ''} · ${formatRunProgress(event.progress)}`;
    }
    case 'attempt-error':
      return event.isErrored === true
        ? `${event.attempt.attemptId} could not start, errored: ${event.error} · ${formatRunProgress(event.progress)}`
        : `${event.attempt.attemptId} try ${event.try} failed to run: ${event.error}`;
  }
}

/** Progress: one updating line on a terminal; plain lines otherwise and with --json (logs stay line-oriented). */
function progressWriter(isJson: boolean): { write: (event: BenchProgressEvent) => void; end: () => void } {
  const isLive = process.stderr.isTTY === true && !isJson;
  let hasLiveLine = false;
  const clear = (): void => {
    if (hasLiveLine) process.stderr.write('\r\x1b[2K');
    hasLiveLine = false;
  };
  return {
    write: (event) => {
      if (event.type === 'task-warning' || event.type === 'validity-warning') {
        clear();
        process.stderr.write(`warning: ${event.type === 'task-warning' ? formatIssue(event.issue) : event.message}\n`);
        return;
      }
      if (isLive) {
        if (event.type === 'try-started') return;
        if (event.type === 'progress' || event.type === 'try-finished') {
          const line = formatRunProgress(event.progress);
          process.stderr.write(`\r\x1b[2K${line.slice(0, Math.max(20, (process.stderr.columns ?? 120) - 1))}`);
          hasLiveLine = true;
          if (event.type === 'progress') return;
          if (event.record.result.passed && !event.willRetry) return;
        }
        clear();
        process.stderr.write(`${describeEvent(event as DescribedEvent)}\n`);
        return;
      }
      if (event.type === 'progress') return;
      process.stderr.write(`${describeEvent(event)}\n`);
    },
    end: clear,
  };
}

/** Runs `ab run` / `ab bench-models` from parsed flags. */
export async function runCommandHandler(argv: RunArguments): Promise<void> {
  const controller = new AbortController();
  const removeHandlers = interruptOnSignals(controller);
  const progress = progressWriter(argv.json);
  const chosen = agentArgument(argv.agent, argv.variant, argv['instruction-template'], { isResume: argv.resume !== undefined });
  const models = argv.models ?? [];
  const runtime = runtimeArgument(argv.runtime);
  const engines = await enginesArgument(argv.engines);
  // A runtime applies to each engine's sandboxes in validate-suite; ab run takes its sandboxes from the engines list alone.
  if (engines !== undefined && runtime !== undefined) throw new UsageError('--runtime cannot be combined with an engines list (--engines or agentbench.config.json) in ab run yet: leave one out');
  let run;
  try {
    run = await runModelBenchmark({
      models,
      ...(argv.task !== undefined ? { task: argv.task } : argv.suite !== undefined ? { suite: argv.suite, tasksDir: argv.tasks, includeFlaky: argv['include-flaky'] } : {}),
      ...(argv.runs === undefined ? {} : { runs: argv.runs }),
      concurrency: parseJobs(argv.j),
      ...(argv['max-jobs'] === undefined ? {} : { maxJobs: argv['max-jobs'] }),
      order: argv.order,
      ...(argv['per-provider'] === undefined ? {} : { perProviderConcurrency: argv['per-provider'] }),
      ...(argv.retries === undefined ? {} : { retries: argv.retries }),
      ...(argv['max-steps'] === undefined ? {} : { maxSteps: argv['max-steps'] }),
      ...(argv['validate-baseline'] === undefined ? {} : { skipBaseline: !argv['validate-baseline'] }),
      ...(argv['include-unvalidated'] === undefined ? {} : { includeUnvalidated: argv['include-unvalidated'] }),
      ...chosen,
      ...(argv.out === undefined ? {} : { outDir: argv.out }),
      ...(argv.resume === undefined ? {} : { resume: argv.resume }),
      probe: argv.probe,
      ...(runtime === undefined ? {} : { runtime }),
      ...(engines === undefined ? {} : { engines }),
      ...(argv.scanner === undefined ? {} : { scanners: argv.scanner }),
      // Only when given: a resume without the flag keeps the run's own setting.
      ...(argv['fail-on-suspicion'] ? { failOnSuspicion: true } : {}),
      signal: controller.signal,
      onProgress: progress.write,
    });
  } finally {
    progress.end();
    removeHandlers();
  }
  const result = await summarizeModelBenchmark(run);
  if (argv.json) process.stdout.write(await readFile(result.summaryFile, 'utf8'));
  else process.stdout.write(formatBenchTable(result));
  if (!run.isComplete) {
    process.stderr.write(`run stopped before every attempt finished: continue it with ab run --resume ${run.outDir}\n`);
    process.exitCode = controller.signal.aborted ? EXIT_CODE_INTERRUPTED : 1;
    // Nothing ran: every attempt errored (or none was recorded).
  } else if (result.entries.every((entry) => entry.summary === null || entry.summary.counts.ran === 0)) process.exitCode = 1;
}

export const runCommand: CommandModule<object, RunArguments> = {
  ...COMMAND_SUMMARIES.run,
  builder: (yargs) =>
    runOptions(yargs)
      .example('$0 run --suite custom-dev --agent scripted --runs 3 -j auto', 'Every task of a suite three times, concurrency growing while the host keeps up')
      .example('$0 run --suite custom-dev --models openai/gpt-4o --runs 5 --out artifacts/runs/gpt4o', 'pass@5 of one model')
      .example('$0 run --resume artifacts/runs/gpt4o', 'Finish a run that was stopped or killed')
      .example('$0 run --suite custom-dev --runs 4 --engines engines.json -j 8', 'Spread the attempts over the Docker engines of engines.json'),
  handler: runCommandHandler,
};
