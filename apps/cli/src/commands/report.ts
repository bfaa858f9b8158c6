import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { formatReadProblem, generateReport, REPORT_FORMATS, type GenerateReportOptions, type ReportFormat } from '@agentbench/report';
import { REPORT_TITLE_OPTION } from '../report-title-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ReportArguments {
  runDirs: string[];
  format: ReportFormat;
  out?: string;
  title?: string;
}

/** Problems printed before the rest are only counted. */
const SHOWN_PROBLEMS = 10;

export const reportCommand: CommandModule<object, ReportArguments> = {
  ...COMMAND_SUMMARIES.report,
  builder: (yargs) =>
    yargs
      .positional('runDirs', { type: 'string', array: true, demandOption: true, describe: 'Run folders (suite runs, agent runs, scenario or matrix runs); several are shown side by side, and two (A B) are also compared as `ab compare A B` does in the html and md reports' })
      .option('format', { choices: REPORT_FORMATS, default: 'html' as ReportFormat, describe: 'html: one self-contained page; junit: for CI; json: summary; md: for pull-request comments' })
      .option('out', { type: 'string', describe: 'File to write. Default: stdout, or <first RUN_DIR>/report.html for html' })
      .option('title', REPORT_TITLE_OPTION)
      .example('$0 report runs/2025-03-01_10-00-00__custom-dev__baseline', 'Write report.html into the run folder')
      .example('$0 report runs/a runs/b --out ab.html', 'Both runs, and B against A: regressions, McNemar p, each changed task\'s two trajectories side by side')
      .example('$0 report runs/a runs/b --format md > summary.md', 'Compare two runs in Markdown')
      .example('$0 report runs/a --format junit --out junit.xml', 'JUnit XML for CI'),
  handler: async (argv) => {
    const first = argv.runDirs[0] as string;
    // A result.json or attempts.jsonl given directly stands for its folder.
    const firstDir = (await stat(first).catch(() => undefined))?.isFile() === true ? path.dirname(first) : first;
    const outFile = argv.out ?? (argv.format === 'html' ? path.join(firstDir, 'report.html') : undefined);
    const options: GenerateReportOptions = { runDirs: argv.runDirs, format: argv.format };
    if (outFile !== undefined) options.outFile = outFile;
    if (argv.title !== undefined) options.title = argv.title;
    const report = await generateReport(options);
    const { problems } = report.model;
    for (const problem of problems.slice(0, SHOWN_PROBLEMS)) process.stderr.write(`warning: ${formatReadProblem(problem)}\n`);
    if (problems.length > SHOWN_PROBLEMS) process.stderr.write(`warning: ${problems.length - SHOWN_PROBLEMS} more unreadable lines or files skipped (listed in the report)\n`);
    if (report.outFile === undefined) {
      process.stdout.write(report.text);
      return;
    }
    const passed = report.model.rows.filter((row) => row.passed).length;
    process.stdout.write(`wrote ${report.outFile} (${argv.format}: ${report.model.rows.length} rows, ${passed} passed, from ${report.model.sources.length} run folder(s))\n`);
  },
};
