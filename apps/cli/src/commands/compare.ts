import type { CommandModule } from 'yargs';
import { COMPARISON_FORMATS, DEFAULT_COMPARE_ALPHA, formatReadProblem, generateComparison, type ComparisonFormat, type ReadProblem } from '@agentbench/report';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface CompareArguments {
  runA: string;
  runB: string;
  format: ComparisonFormat;
  out: string | undefined;
  alpha: number;
  'fail-on-regression': boolean;
}

/** Problems printed before the rest are only counted. */
const SHOWN_PROBLEMS = 10;

/** Exit code of `--fail-on-regression` when B is significantly worse. */
export const EXIT_CODE_REGRESSION = 1;

export const compareCommand: CommandModule<object, CompareArguments> = {
  ...COMMAND_SUMMARIES.compare,
  builder: (yargs) =>
    yargs
      .positional('runA', { type: 'string', demandOption: true, describe: 'The reference run folder (before the change)' })
      .positional('runB', { type: 'string', demandOption: true, describe: 'The run folder to judge (the new model, the prompt change)' })
      .option('format', {
        choices: COMPARISON_FORMATS,
        default: 'text' as ComparisonFormat,
        describe: 'text: tables for a terminal; md: a pull-request comment; json: the whole comparison; html: a page with the changed trajectories side by side',
      })
      .option('out', { type: 'string', describe: 'File to write instead of stdout' })
      .option('alpha', { type: 'number', default: DEFAULT_COMPARE_ALPHA, describe: "Significance level of McNemar's exact test" })
      .option('fail-on-regression', {
        type: 'boolean',
        default: false,
        describe: 'Exit 1 when B is significantly worse: McNemar exact p < --alpha and more regressions (pass → fail) than fixes',
      })
      .epilogue(
        [
          'Attempts are paired by task id and repeat (the n-th attempt of a task in A with the n-th in B, by start time).',
          'A pair where a side errored (infrastructure, interruption) is shown but left out of the statistics.',
          "Significance: McNemar's exact test (two-sided binomial on the discordant pairs).",
          'Pass-rate difference B − A: paired percentile bootstrap, 95%, 10,000 resamples, seed 20240101 (reproducible).',
          'First divergence: the first tool call (name, then arguments as canonical JSON) that differs between the two trajectories.',
          'Changed tasks: rows with the same task, change and divergence are one row with a count, naming each side\'s model and the repeats (A scripted → B openai/gpt-4o #2–#10); html shows an apply_patch as a diff.',
          'Figures: each side over its own attempts; a figure a side does not report is –, never 0 (a model without a price: "cost unknown: no price for model X").',
          'Exit codes: 0 compared; 1 with --fail-on-regression when B is significantly worse, or a bad input (a folder without runs, no task in common).',
        ].join('\n'),
      )
      .example('$0 compare artifacts/runs/before artifacts/runs/after', 'Tables on the terminal')
      .example('$0 compare runs/main runs/pr --format md --fail-on-regression > comment.md', 'A pull-request comment; fails CI on a significant regression')
      .example('$0 compare runs/a runs/b --format html --out compare.html', 'Both trajectories of every changed task side by side'),
  handler: async (argv) => {
    if (typeof argv.alpha !== 'number' || !(argv.alpha > 0 && argv.alpha < 1)) {
      throw new UsageError(`--alpha: expected a number between 0 and 1 such as 0.05, found ${String(argv.alpha)}`);
    }
    const problems: ReadProblem[] = [];
    const generated = await generateComparison({
      folderA: argv.runA,
      folderB: argv.runB,
      format: argv.format,
      alpha: argv.alpha,
      problems,
      ...(argv.out === undefined ? {} : { outFile: argv.out }),
    });
    for (const problem of problems.slice(0, SHOWN_PROBLEMS)) process.stderr.write(`warning: ${formatReadProblem(problem)}\n`);
    if (problems.length > SHOWN_PROBLEMS) process.stderr.write(`warning: ${problems.length - SHOWN_PROBLEMS} more unreadable lines or files skipped\n`);
    const { comparison } = generated;
    if (generated.outFile === undefined) process.stdout.write(generated.text);
    else {
      process.stdout.write(
        `wrote ${generated.outFile} (${argv.format}: ${comparison.counts.pairs} pairs, ${comparison.counts.regressions} regressions, ${comparison.counts.fixes} fixes, McNemar p = ${comparison.mcnemar.pValue.toPrecision(3)})\n`,
      );
    }
    if (argv['fail-on-regression'] && comparison.verdict.isSignificantlyWorse) {
      process.stderr.write(`B is significantly worse than A (McNemar exact p = ${comparison.mcnemar.pValue.toPrecision(3)} < ${argv.alpha}, ${comparison.counts.regressions} regressions, ${comparison.counts.fixes} fixes)\n`);
      process.exitCode = EXIT_CODE_REGRESSION;
    }
  },
};
