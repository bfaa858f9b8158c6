import type { CommandModule } from 'yargs';
import { checkUpstream, formatDivergence, readCassette, startModelProxy, type ModelProxyMode } from '@agentbench/cassette';
import { UsageError } from '../usage-error.js';
import { LOOPBACK_PORT_OPTION } from '../loopback-port-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

export interface ProxyArguments {
  record: string | undefined;
  replay: string | undefined;
  upstream: string | undefined;
  then: string | undefined;
  port: number;
  role: string;
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export const proxyCommand: CommandModule<object, ProxyArguments> = {
  ...COMMAND_SUMMARIES.proxy,
  builder: (yargs) =>
    yargs
      .option('record', { type: 'string', describe: 'Cassette file to record to (forwarding to --upstream)' })
      .option('replay', { type: 'string', describe: 'Cassette file to answer from, offline' })
      .option('upstream', { type: 'string', describe: 'The real endpoint, e.g. https://openrouter.ai/api/v1 (with --record, or --replay --then live)' })
      .option('then', { type: 'string', choices: ['live'], describe: 'With --replay: after the first request the cassette does not hold, forward to --upstream' })
      .option('port', LOOPBACK_PORT_OPTION)
      .option('role', { type: 'string', default: 'agent', describe: 'Role recorded for requests under /v1 (others use /role/<role>/v1)' })
      .example('$0 proxy --record cassette.jsonl --upstream https://openrouter.ai/api/v1', 'Record, then run your agent with OPENAI_BASE_URL set to the printed URL')
      .example('$0 proxy --replay cassette.jsonl', 'Serve the same answers again, offline'),
  handler: async (argv) => {
    if ((argv.record === undefined) === (argv.replay === undefined)) throw new UsageError('give exactly one of --record FILE or --replay FILE');
    if (argv.then !== undefined && argv.replay === undefined) throw new UsageError('--then live goes with --replay FILE');
    const isLiveNeeded = argv.record !== undefined || argv.then === 'live';
    if (isLiveNeeded && argv.upstream === undefined) throw new UsageError(`${argv.record !== undefined ? '--record' : '--then live'} needs --upstream URL (the real endpoint, e.g. https://openrouter.ai/api/v1)`);
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new UsageError(`--port: expected a port number 0-65535, found ${String(argv.port)}`);
    if (isLiveNeeded) await checkUpstream(argv.upstream as string);
    const mode: ModelProxyMode = argv.record !== undefined ? 'record' : argv.then === 'live' ? 'replay-then-live' : 'replay';
    const replayFrom = argv.replay === undefined ? undefined : await readCassette(argv.replay);
    const proxy = await startModelProxy({
      mode,
      port: argv.port,
      role: argv.role,
      ...(argv.record === undefined ? {} : { cassette: argv.record }),
      ...(replayFrom === undefined ? {} : { replayFrom, run: { taskId: replayFrom.header.task_id ?? null, scenarioId: replayFrom.header.scenario_id ?? null, repeatIndex: replayFrom.header.repeat_index } }),
      ...(argv.upstream === undefined ? {} : { upstream: argv.upstream }),
      onDivergence: (divergence) => process.stderr.write(`${formatDivergence(divergence)}\n`),
    });
    const what = mode === 'record' ? `recording to ${argv.record} from ${argv.upstream}` : `replaying ${argv.replay}${mode === 'replay-then-live' ? `, then live from ${argv.upstream}` : ' (offline)'}`;
    // Listening for Ctrl-C before the URL is printed: a stop right after it still closes the cassette.
    const interrupted = untilInterrupted();
    process.stdout.write(`model proxy ${what}\nOPENAI_BASE_URL=${proxy.url}\n(Ctrl-C stops it)\n`);
    await interrupted;
    await proxy.close();
    const unserved = replayFrom === undefined ? 0 : proxy.unservedExchanges().length;
    process.stdout.write(`model proxy stopped: ${proxy.exchangeCount} exchange${proxy.exchangeCount === 1 ? '' : 's'}${unserved > 0 ? `, ${unserved} recorded never asked for` : ''}\n`);
    process.exitCode = proxy.divergence === undefined ? 0 : 1;
  },
};
