import type { CommandModule } from 'yargs';
import { formatIssue, loadSuite } from '@agentbench/schemas';
import { jsonOption } from '../json-option.js';
import { SUITE_POSITIONAL, TASKS_FOLDER_OPTION } from '../suite-options.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface ListTasksArguments {
  suite: string;
  tasks: string;
  json: boolean;
}

export const listTasksCommand: CommandModule<object, ListTasksArguments> = {
  ...COMMAND_SUMMARIES['list-tasks'],
  builder: (yargs) =>
    yargs
      .positional('suite', SUITE_POSITIONAL)
      .option('tasks', TASKS_FOLDER_OPTION)
      .option('json', jsonOption('Print a JSON array instead of one id per line'))
      .example('$0 list-tasks custom-dev', 'List the bundled toy tasks'),
  handler: async (argv) => {
    const { tasks, warnings } = await loadSuite(argv.tasks, argv.suite);
    for (const warning of warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    if (argv.json) {
      const rows = tasks.map((loaded) => ({ id: loaded.task.id, file: loaded.file, labels: loaded.task.labels }));
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    for (const loaded of tasks) process.stdout.write(`${loaded.task.id}\n`);
  },
};
