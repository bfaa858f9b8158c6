import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { formatIssueList, validateFile, type FileValidationReport } from '@agentbench/schemas';
import { runChecks } from '@agentbench/scenario-runner';
import { UsageError } from '../usage-error.js';
import { jsonOption } from '../json-option.js';
import { PLUGIN_OPTION } from '../plugin-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface ValidateArguments {
  files: string[];
  json: boolean;
  plugin?: string[];
}

const lintableName = /(^task\.ya?ml$)|(\.scenario\.ya?ml$)|(\.matrix\.ya?ml$)/;

/** Expands folders into the task, scenario and matrix files they hold, sorted. */
async function expandInputs(inputs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (!info) throw new UsageError(`${input}: no such file or folder`);
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    const entries = await readdir(input, { recursive: true, withFileTypes: true });
    const found = entries
      .filter((entry) => entry.isFile() && lintableName.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => !file.split(path.sep).includes('node_modules'))
      .sort();
    if (found.length === 0) throw new UsageError(`${input}: no task.yaml, *.scenario.yaml or *.matrix.yaml files in this folder`);
    files.push(...found);
  }
  return files;
}

export const validateCommand: CommandModule<object, ValidateArguments> = {
  ...COMMAND_SUMMARIES.validate,
  builder: (yargs) =>
    yargs
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'Files or folders to check' })
      .option('json', jsonOption('Print every issue as JSON'))
      .option('plugin', PLUGIN_OPTION)
      .example('$0 validate tasks/custom-dev/*/task.yaml', 'Check the bundled tasks')
      .example('$0 validate fixtures/scenarios', 'Check every scenario and matrix file in a folder'),
  handler: async (argv) => {
    const files = await expandInputs(argv.files);
    // A scenario or matrix file is checked as a run checks it before starting (plugins, evaluators, matrix paths).
    const checks = runChecks(argv.plugin === undefined || argv.plugin.length === 0 ? {} : { plugins: { fromCli: argv.plugin } });
    const results: FileValidationReport[] = [];
    for (const file of files) results.push(await validateFile(file, checks));

    const invalid = results.filter((result) => !result.isValid);
    if (argv.json) {
      process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    } else {
      for (const result of results) {
        const status = result.isValid ? 'ok' : 'invalid';
        process.stdout.write(`${status.padEnd(8)}${result.file} (${result.kind ?? 'unknown kind'})\n`);
        for (const line of formatIssueList(result.issues)) process.stdout.write(`  ${line}\n`);
      }
      process.stdout.write(`${results.length} file(s) checked: ${results.length - invalid.length} valid, ${invalid.length} invalid\n`);
    }
    if (invalid.length > 0) process.exitCode = 1;
  },
};
