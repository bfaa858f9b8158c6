import { writeFile } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import { matrixJsonSchema, scenarioJsonSchema, taskJsonSchema } from '@agentbench/schemas';
import { COMMAND_SUMMARIES } from './command-summaries.js';

const schemaByFormat = { task: taskJsonSchema, scenario: scenarioJsonSchema, matrix: matrixJsonSchema };
type Format = keyof typeof schemaByFormat;

interface SchemaArguments {
  format: Format;
  out?: string;
}

export const schemaCommand: CommandModule<object, SchemaArguments> = {
  ...COMMAND_SUMMARIES.schema,
  builder: (yargs) =>
    yargs
      .positional('format', { choices: Object.keys(schemaByFormat) as Format[], demandOption: true })
      .option('out', { type: 'string', describe: 'Write to this file instead of standard output' })
      .example('$0 schema task --out task.schema.json', 'Then start task.yaml with: # yaml-language-server: $schema=./task.schema.json'),
  handler: async (argv) => {
    const text = `${JSON.stringify(schemaByFormat[argv.format](), null, 2)}\n`;
    if (argv.out) await writeFile(argv.out, text);
    else process.stdout.write(text);
  },
};
