import type { CommandModule } from 'yargs';
import { UsageError } from '../usage-error.js';
import { runCommandHandler, runOptions, type RunArguments } from './run.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

/** `ab bench-models`: `ab run` with several models, under its old name (same flags, same run folder). */
export const benchModelsCommand: CommandModule<object, RunArguments> = {
  ...COMMAND_SUMMARIES['bench-models'],
  builder: (yargs) =>
    runOptions(yargs)
      .check((argv) => {
        if (argv.models === undefined && argv.resume === undefined) throw new UsageError('bench-models needs --models (a models.txt or a comma-separated list)');
        return true;
      })
      .example('$0 bench-models --task tasks/custom-dev/toy_fail_pytest/task.yaml --models models.txt --probe', 'Every model of your models.txt (one per line, # comments) on one task; models that do not answer are dropped')
      .example('$0 bench-models --suite custom-dev --models openai/gpt-4o,anthropic/claude-3.5-sonnet --runs 5 -j 4', 'pass@5 of two models on a suite'),
  handler: runCommandHandler,
};
