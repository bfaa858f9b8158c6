import path from 'node:path';
import type { CommandModule } from 'yargs';
import { formatDivergence } from '@agentbench/cassette';
import { EXIT_CODE_INTERRUPTED, formatAttemptComparison, interruptOnSignals, replayAgentAttempt, sandboxFactoryFor } from '@agentbench/harness';
import { formatScenarioComparison, isScenarioRunFolder, replayScenarioRun } from '@agentbench/scenario-runner';
import { backendOption } from '../backend-option.js';
import { agentArgument, INSTRUCTION_TEMPLATE_OPTION } from '../agent-option.js';
import { UsageError } from '../usage-error.js';
import { jsonOption } from '../json-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ReplayArguments {
  runDir: string;
  then: string | undefined;
  variant: string | undefined;
  agent: string | undefined;
  'instruction-template': string | undefined;
  scenario: string | undefined;
  out: string | undefined;
  backend: string;
  json: boolean;
}

export const replayCommand: CommandModule<object, ReplayArguments> = {
  ...COMMAND_SUMMARIES.replay,
  builder: (yargs) =>
    yargs
      .positional('runDir', {
        type: 'string',
        demandOption: true,
        describe: 'An agent attempt folder (agent_runs/<task>/<id>/, with attempt.json) or a scenario run folder (scenarios/<time>__<name>__<id>/, with result.json and run-settings.json), each with cassette.jsonl',
      })
      .option('then', { type: 'string', choices: ['live'], describe: 'At the first request the cassette does not hold, go on against the live endpoint (replay-then-fork) instead of stopping' })
      .option('variant', { type: 'string', describe: 'Agent attempts: replay with another agent (a path or package) to see where it leaves the recording. Default: the recorded one' })
      .option('agent', { type: 'string', describe: 'Agent attempts of an installed agent: replay with another one, NAME[@VERSION] or a definition file. Default: the recorded one, at its recorded version' })
      .option('instruction-template', { ...INSTRUCTION_TEMPLATE_OPTION, describe: "Agent attempts of an installed agent: replay with the instruction built from this template, to see where it leaves the recording. Default: the recorded one's template" })
      .option('scenario', { type: 'string', describe: 'Scenario runs: replay another scenario file (an edited prompt or user line) to see where it leaves the recording. Default: the copy the run kept' })
      .option('out', { type: 'string', describe: "Agent attempts: the artifacts folder of the replay (it goes to <out>/agent_runs/<task>/<id>/; default: replays/ of the attempt's ab run folder, else replays/ beside its agent_runs/, never among the attempts a report of the run counts). Scenario runs: the replay run folder (default: <run folder>__replay-<time>)" })
      .option('backend', backendOption())
      .option('json', jsonOption('Print the replay folder, the divergence and the comparison as JSON'))
      .example('$0 replay artifacts/agent_runs/toy_fail_pytest/01J...', 'Same code and same cassette: the same verdict and trajectory')
      .example('$0 replay artifacts/scenarios/2025-01-31T12-00-00__billing__01J...', 'A scenario run: agent, user simulator and judge served from its cassette'),
  handler: async (argv) => {
    // One command for both kinds of folder, told apart by their files.
    if (await isScenarioRunFolder(argv.runDir)) return replayScenario(argv);
    if (argv.scenario !== undefined) throw new UsageError(`--scenario: ${argv.runDir} is not a scenario run folder (no result.json or run-settings.json)`);
    return replayAttempt(argv);
  },
};

async function replayAttempt(argv: ReplayArguments): Promise<void> {
  const controller = new AbortController();
  const removeHandlers = interruptOnSignals(controller);
  let result;
  try {
    result = await replayAgentAttempt({
      attemptDir: argv.runDir,
      thenLive: argv.then === 'live',
      createSandbox: sandboxFactoryFor(argv.backend),
      signal: controller.signal,
      ...agentArgument(argv.agent, argv.variant),
      ...(argv['instruction-template'] === undefined ? {} : { instructionTemplate: path.resolve(argv['instruction-template']) }),
      ...(argv.out === undefined ? {} : { outDir: argv.out }),
      ...(argv.json ? {} : { onStage: (stage: string) => process.stderr.write(`replay: ${stage}\n`) }),
    });
  } finally {
    removeHandlers();
  }
  const { replay, comparison } = result;
  const divergence = replay.models.divergence;
  if (argv.json) {
    process.stdout.write(`${JSON.stringify({ run_dir: replay.runDir, divergence: divergence ?? null, forked_at: replay.models.forkedAt ?? null, comparison }, null, 2)}\n`);
  } else {
    if (divergence !== undefined) process.stdout.write(`${formatDivergence(divergence)}\n`);
    if (replay.models.forkedAt !== undefined) process.stdout.write(`went live at ${replay.models.forkedAt.role} step ${replay.models.forkedAt.step}; the rest of the run is recorded as live\n`);
    process.stdout.write(`${formatAttemptComparison(comparison)}\n`);
    process.stdout.write(`replay: ${replay.runDir}\n`);
  }
  const isInterrupted = replay.record.result.failure_reason === 'INTERRUPTED';
  // A fork is expected to leave the recording: it succeeds when it ran; a plain replay only when nothing diverged.
  const isReproduced = argv.then === 'live' ? true : divergence === undefined && comparison.isSame;
  process.exitCode = isInterrupted ? EXIT_CODE_INTERRUPTED : isReproduced ? 0 : 1;
}

async function replayScenario(argv: ReplayArguments): Promise<void> {
  if (argv.variant !== undefined) throw new UsageError(`--variant: ${argv.runDir} is a scenario run; to replay it with a changed agent or prompt, give the edited scenario file with --scenario`);
  const controller = new AbortController();
  const removeHandlers = interruptOnSignals(controller);
  let result;
  try {
    result = await replayScenarioRun({
      runDir: argv.runDir,
      thenLive: argv.then === 'live',
      signal: controller.signal,
      ...(argv.scenario === undefined ? {} : { scenario: argv.scenario }),
      ...(argv.out === undefined ? {} : { outDir: argv.out }),
    });
  } finally {
    removeHandlers();
  }
  const { replay, comparison, divergence, forkedAt } = result;
  if (argv.json) {
    process.stdout.write(`${JSON.stringify({ run_dir: replay.runDir, divergence: divergence ?? null, forked_at: forkedAt ?? null, comparison }, null, 2)}\n`);
  } else {
    if (divergence !== undefined) process.stdout.write(`${formatDivergence(divergence)}\n`);
    if (forkedAt !== undefined) process.stdout.write(`went live at ${forkedAt.role} step ${forkedAt.step}; the rest of the run is recorded as live\n`);
    process.stdout.write(`${formatScenarioComparison(comparison)}\n`);
    process.stdout.write(`replay: ${replay.runDir}\n`);
  }
  const isReproduced = argv.then === 'live' ? true : divergence === undefined && comparison.isSame;
  process.exitCode = controller.signal.aborted ? EXIT_CODE_INTERRUPTED : isReproduced ? 0 : 1;
}
