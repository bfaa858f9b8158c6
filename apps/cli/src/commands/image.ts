import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandModule } from 'yargs';
import { EngineSet, ensureRootfs, pingEngine } from '@agentbench/sandbox';
import { UsageError } from '../usage-error.js';
import { ENGINES_OPTION, enginesArgument, pickEngine } from '../engines-option.js';
import { runnerImageOption } from '../runner-image-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

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
      .option('image', runnerImageOption('Tag to build')),
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
      .option('image', runnerImageOption('Runner image whose filesystem to export'))
      .option('dir', { type: 'string', describe: 'Target folder (default: ~/.cache/agentbench/rootfs/<image>)' }),
  handler: async (argv) => {
    const dir = await ensureRootfs({ image: argv.image, ...(argv.dir ? { dir: argv.dir } : {}) });
    process.stdout.write(`${dir}\n`);
  },
};

interface PushArguments {
  image: string;
  engine: string;
  engines?: string;
}

const progressEveryBytes = 64 * 1024 * 1024;

const pushCommand: CommandModule<object, PushArguments> = {
  command: 'push',
  describe: "Send the runner image from the local engine to an engine of the engines list (docker save streamed into the engine's load endpoint; no registry)",
  builder: (yargs) =>
    yargs
      .option('image', runnerImageOption('Image to send'))
      .option('engine', { type: 'string', demandOption: true, describe: 'Name of the target engine in the engines list' })
      .option('engines', ENGINES_OPTION),
  handler: async (argv) => {
    const engines = await enginesArgument(argv.engines);
    if (engines === undefined) throw new UsageError('--engine needs an engines list: pass --engines FILE or add "engines" to ./agentbench.config.json');
    const engine = pickEngine(engines, argv.engine);
    const engineSet = await EngineSet.open([engine]);
    const health = await pingEngine(engineSet.engine(engine.name).docker);
    if (!health.isUp) throw new UsageError(`engine '${engine.name}' (${engine.host}) does not answer: ${health.message}`);
    let nextReport = progressEveryBytes;
    const results = await engineSet.ensureImage(argv.image, {
      onProgress: (_, { bytes }) => {
        if (bytes < nextReport) return;
        nextReport += progressEveryBytes;
        process.stderr.write(`sending ${argv.image} to ${engine.name}: ${(bytes / 1e6).toFixed(0)} MB\n`);
      },
    });
    const result = results.get(engine.name);
    if (result?.status === 'sent') process.stdout.write(`sent ${argv.image} to ${engine.name}: ${(result.bytes / 1e6).toFixed(0)} MB in ${(result.durationMs / 1000).toFixed(1)} s\n`);
    else process.stdout.write(`${argv.image} is already on ${engine.name}\n`);
  },
};

export const imageCommand: CommandModule = {
  ...COMMAND_SUMMARIES.image,
  builder: (yargs) => yargs.command(buildCommand as never).command(exportRootfsCommand as never).command(pushCommand as never).demandCommand(1),
  handler: () => {},
};
