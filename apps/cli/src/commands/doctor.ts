import type { CommandModule } from 'yargs';
import { checkEngines, runDoctor, type DoctorCheck } from '@agentbench/sandbox';
import { ENGINES_OPTION, openEngineSet } from '../engines-option.js';
import { jsonOption } from '../json-option.js';
import { runnerImageOption } from '../runner-image-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

interface DoctorArguments {
  image: string;
  json: boolean;
  engines?: string;
}

const marks: Record<DoctorCheck['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

export const doctorCommand: CommandModule<object, DoctorArguments> = {
  ...COMMAND_SUMMARIES.doctor,
  builder: (yargs) =>
    yargs
      .option('image', runnerImageOption('Runner image to check'))
      .option('json', jsonOption('Print the report as JSON'))
      .option('engines', ENGINES_OPTION)
      .epilog('Exits 1 when something the default path (Docker backend + runner image) needs is missing.'),
  handler: async (argv) => {
    const report = await runDoctor({
      image: argv.image,
      onCheck: argv.json
        ? undefined
        : (check) => process.stdout.write(`${marks[check.status].padEnd(5)} ${check.name.padEnd(26)} ${check.detail}\n`),
    });
    const engineChecks = await doctorEngines(argv);
    const isHealthy = report.isHealthy && engineChecks.every((check) => check.status === 'ok');
    if (argv.json) process.stdout.write(`${JSON.stringify({ ...report, isHealthy, engines: engineChecks }, null, 2)}\n`);
    else process.stdout.write(isHealthy ? '\nall required checks passed\n' : '\nsome required checks did not pass (see FAIL / WARN above)\n');
    if (!isHealthy) process.exitCode = 1;
  },
};

/** Every engine of the engines list (--engines or agentbench.config.json): reachable, version, image, network isolation. */
async function doctorEngines(argv: DoctorArguments): Promise<DoctorCheck[]> {
  const engineSet = await openEngineSet(argv.engines);
  if (engineSet === undefined) return [];
  if (!argv.json) process.stdout.write('\nengines\n');
  return checkEngines(engineSet, {
    image: argv.image,
    ...(argv.json ? {} : { onCheck: (check: DoctorCheck) => process.stdout.write(`${marks[check.status].padEnd(5)} ${check.name.padEnd(26)} ${check.detail}\n`) }),
  });
}
