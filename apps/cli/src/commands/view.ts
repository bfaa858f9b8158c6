import { EventEmitter } from 'node:events';
import type { CommandModule } from 'yargs';
import { serveReport, type ReportServer, type ServeReportOptions } from '@agentbench/report';
import { LOOPBACK_PORT_OPTION } from '../loopback-port-option.js';
import { REPORT_TITLE_OPTION } from '../report-title-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ViewArguments {
  runDirs: string[];
  port: number;
  title?: string;
}

/** Emits `listening` with the ReportServer once `ab view` serves (for embedding and tests). */
export const viewEvents = new EventEmitter<{ listening: [ReportServer] }>();

export const viewCommand: CommandModule<object, ViewArguments> = {
  ...COMMAND_SUMMARIES.view,
  builder: (yargs) =>
    yargs
      .positional('runDirs', { type: 'string', array: true, demandOption: true, describe: 'Run folders to show (several side by side)' })
      .option('port', LOOPBACK_PORT_OPTION)
      .option('title', REPORT_TITLE_OPTION)
      .example('$0 view runs/2025-03-01_10-00-00__custom-dev__baseline', 'Open the report in a browser'),
  handler: async (argv) => {
    const options: ServeReportOptions = { runDirs: argv.runDirs, port: argv.port };
    if (argv.title !== undefined) options.title = argv.title;
    const server = await serveReport(options);
    const stop = (): void => {
      void server.close();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      process.stdout.write(`serving the report of ${argv.runDirs.join(', ')} at ${server.url} (read-only; Ctrl+C to stop)\n`);
      viewEvents.emit('listening', server);
      await server.closed;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
};
