import type { CommandModule } from 'yargs';
import { formatDivergence } from '@agentbench/cassette';
import { EXIT_CODE_INTERRUPTED, formatAttemptComparison, interruptOnSignals, replayAgentAttempt, sandboxFactoryFor } from '@agentbench/harness';
import { backendOption } from '../backend-option.js';

export interface ReplayArguments {
  attemptDir: string;
  then: string | undefined;
  variant: string | undefined;
  out: string | undefined;
  backend: string;
  json: boolean;
}

export const replayCommand: CommandModule<object, ReplayArguments> = {
  command: 'replay <attemptDir>',
  describe: "Re-run a recorded agent attempt with its models served from its cassette, offline, and compare the two",
  builder: (yargs) =>
    yargs
      .positional('attemptDir', { type: 'string', demandOption: true, describe: 'The attempt folder (agent_runs/<task>/<id>/, with attempt.json and cassette.jsonl)' })
      .option('then', { type: 'string', choices: ['live'], describe: 'At the first request the cassette does not hold, go on against the live endpoint (replay-then-fork) instead of stopping' })
      .option('variant', { type: 'string', describe: 'Replay with another agent (a path or package) to see where it leaves the recording. Default: the recorded one' })
      .option('out', { type: 'string', describe: 'Artifacts folder of the replay. Default: the one the attempt is in' })
      .option('backend', backendOption())
      .option('json', { type: 'boolean', default: false, describe: 'Print the replay folder, the divergence and the comparison as JSON' })
      .example('$0 replay artifacts/agent_runs/toy_fail_pytest/01J...', 'Same code and same cassette: the same verdict and trajectory'),
  handler: async (argv) => {
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    let result;
    try {
      result = await replayAgentAttempt({
        attemptDir: argv.attemptDir,
        thenLive: argv.then === 'live',
        createSandbox: sandboxFactoryFor(argv.backend),
        signal: controller.signal,
        ...(argv.variant === undefined ? {} : { variant: argv.variant }),
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
  },
};
