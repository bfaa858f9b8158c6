import type { CommandModule } from 'yargs';
import { formatIssue } from '@agentbench/schemas';
import {
  DEFAULT_IMPORTED_TASK_TIMEOUT_SEC,
  DEFAULT_MAX_STEPS,
  formatRecordProblem,
  importSwebench,
  type ImportSwebenchOptions,
} from '@agentbench/swebench';
import { jsonOption } from '../json-option.js';
import { runnerImageOption } from '../runner-image-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ImportSwebenchArguments {
  file: string;
  out: string;
  filter?: string[];
  image: string;
  'timeout-sec': number;
  'max-steps': number;
  'setup-command'?: string[];
  overwrite: boolean;
  json: boolean;
}

/** `--filter a,b --filter c` and `--filter "a b"` all name ids a, b (and c). */
function splitIds(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values.flatMap((value) => value.split(/[\s,]+/)).filter((id) => id !== '');
}

export const importSwebenchCommand: CommandModule<object, ImportSwebenchArguments> = {
  ...COMMAND_SUMMARIES['import-swebench'],
  builder: (yargs) =>
    yargs
      .positional('file', { type: 'string', demandOption: true, describe: 'SWE-bench records: JSON Lines (.jsonl) or a JSON array (.json)' })
      .option('out', { type: 'string', demandOption: true, describe: 'Suite folder to write, e.g. tasks/swe-bench-lite (its name is the suite name)' })
      .option('filter', { type: 'string', array: true, describe: 'Only these instance ids (comma- or space-separated, repeatable)' })
      .option('image', runnerImageOption('environment.docker_image of every task'))
      .option('timeout-sec', { type: 'number', default: DEFAULT_IMPORTED_TASK_TIMEOUT_SEC, describe: 'environment.timeout_sec: each setup command and test run' })
      .option('max-steps', { type: 'number', default: DEFAULT_MAX_STEPS, describe: 'agent.max_steps of every task' })
      .option('setup-command', { type: 'string', array: true, describe: "Setup commands replacing the repository table's (repeatable; the test patch is still applied first)" })
      .option('overwrite', { type: 'boolean', default: false, describe: 'Replace task folders that already exist' })
      .option('json', jsonOption('Print the result as JSON'))
      .example('$0 import-swebench swe-bench-lite.jsonl --out tasks/swe-bench-lite', 'Import every instance')
      .example('$0 import-swebench lite.json --out tasks/lite --filter django__django-15781,psf__requests-1963', 'Import two instances'),
  handler: async (argv) => {
    const options: ImportSwebenchOptions = {
      file: argv.file,
      outDir: argv.out,
      dockerImage: argv.image,
      timeoutSec: argv['timeout-sec'],
      maxSteps: argv['max-steps'],
      isOverwriting: argv.overwrite,
    };
    const filter = splitIds(argv.filter);
    if (filter !== undefined) options.filter = filter;
    if (argv['setup-command'] !== undefined) options.setupCommands = argv['setup-command'];
    const result = await importSwebench(options);
    const hasProblems = result.skipped.length > 0 || result.unknownFilterIds.length > 0;
    if (hasProblems) process.exitCode = 1;
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    for (const task of result.imported) {
      process.stdout.write(`imported ${task.taskId} (${task.testRunner}) -> ${task.dir}\n`);
      for (const warning of task.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    }
    for (const problem of result.skipped) process.stderr.write(`skipped ${formatRecordProblem(problem)}\n`);
    if (result.unknownFilterIds.length > 0) process.stderr.write(`not in ${argv.file}: ${result.unknownFilterIds.join(', ')}\n`);
    process.stdout.write(`${result.imported.length} imported, ${result.skipped.length} skipped into ${result.outDir} (suite ${result.suite})\n`);
  },
};
