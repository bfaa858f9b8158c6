import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandModule } from 'yargs';
import { DEFAULT_DOCKER_IMAGE, ensureRootfs } from '@agentbench/sandbox';
import { UsageError } from '../usage-error.js';

// The offline build script lives in the repository's docker/ folder (src/ and dist/ are both two levels down).
const buildScript = fileURLToPath(new URL('../../../../docker/py-runner/build-offline.sh', import.meta.url));

interface BuildArguments {
  force: boolean;
  image: string;
}

const buildCommand: CommandModule<object, BuildArguments> = {
  command: 'build',
  describe: 'Build the runner image offline (debootstrap + docker import; no registry needed)',
  builder: (yargs) =>
    yargs
      .option('force', { type: 'boolean', default: false, describe: 'Rebuild even when the image exists' })
      .option('image', { type: 'string', default: DEFAULT_DOCKER_IMAGE, describe: 'Tag to build' }),
  handler: async (argv) => {
    if (!existsSync(buildScript)) {
      throw new UsageError(
        `the offline build script was not found at ${buildScript}; it ships with the AgentBench repository (docker/py-runner/). With a registry, build docker/py-runner/Dockerfile instead`,
      );
    }
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn('bash', [buildScript, ...(argv.force ? ['--force'] : [])], {
        stdio: 'inherit',
        env: { ...process.env, AGENTBENCH_RUNNER_IMAGE: argv.image },
      });
      child.on('error', reject);
      child.on('close', (exitCode) => resolve(exitCode ?? 1));
    });
    if (code !== 0) process.exitCode = code;
  },
};

interface ExportArguments {
  image: string;
  dir?: string;
}

const exportRootfsCommand: CommandModule<object, ExportArguments> = {
  command: 'export-rootfs',
  describe: 'Export the runner image filesystem once, for the bwrap backend',
  builder: (yargs) =>
    yargs
      .option('image', { type: 'string', default: DEFAULT_DOCKER_IMAGE })
      .option('dir', { type: 'string', describe: 'Target folder (default: ~/.cache/agentbench/rootfs/<image>)' }),
  handler: async (argv) => {
    const dir = await ensureRootfs({ image: argv.image, ...(argv.dir ? { dir: argv.dir } : {}) });
    process.stdout.write(`${dir}\n`);
  },
};

export const imageCommand: CommandModule = {
  command: 'image <command>',
  describe: 'Build or export the runner image',
  builder: (yargs) => yargs.command(buildCommand as never).command(exportRootfsCommand as never).demandCommand(1),
  handler: () => {},
};
