import type { CommandModule } from 'yargs';
import { DEFAULT_DOCKER_IMAGE, runDoctor, type DoctorCheck } from '@agentbench/sandbox';

interface DoctorArguments {
  image: string;
  json: boolean;
}

const marks: Record<DoctorCheck['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' };

export const doctorCommand: CommandModule<object, DoctorArguments> = {
  command: 'doctor',
  describe: 'List the registered sandbox backends; check the Docker engine, runner image, network isolation, gVisor (runsc), bwrap, local and leftover containers',
  builder: (yargs) =>
    yargs
      .option('image', { type: 'string', default: DEFAULT_DOCKER_IMAGE, describe: 'Runner image to check' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
      .epilog('Exits 1 when something the default path (Docker backend + runner image) needs is missing.'),
  handler: async (argv) => {
    const report = await runDoctor({
      image: argv.image,
      onCheck: argv.json
        ? undefined
        : (check) => process.stdout.write(`${marks[check.status].padEnd(5)} ${check.name.padEnd(26)} ${check.detail}\n`),
    });
    if (argv.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else process.stdout.write(report.isHealthy ? '\nall required checks passed\n' : '\nsome required checks did not pass (see FAIL / WARN above)\n');
    if (!report.isHealthy) process.exitCode = 1;
  },
};
