import { parseArgs } from 'node:util';
import { FakeLlmServerError } from '../errors/fake-llm-server-error.js';
import type { FakeReply } from '../replies/fake-reply.js';
import type { FakeScript } from '../server/fake-llm-server-options.js';
import { startFakeLlmServer, type FakeLlmServer } from '../server/start-fake-llm-server.js';
import { loadScriptFile } from './load-script-file.js';

export const USAGE = `Usage: fake-llm-server --script FILE.json [--port N] [--host ADDRESS] [--loop] [--quiet]

A scripted model server (OpenAI Chat Completions and Responses, Anthropic Messages) for offline demos and tests.
  --script FILE  JSON array of replies, or {"replies": [...], "models": [...]}
  --port N       port to listen on (default 0: any free port; the URL is printed)
  --host ADDRESS address to listen on (default 127.0.0.1)
  --loop         start again from the first reply when the script runs out
  --quiet        do not log each request to stderr
Serves POST /v1/chat/completions, POST /v1/responses, POST /v1/messages (Anthropic) and GET /v1/models.`;

export interface CliOutput {
  write(text: string): unknown;
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) {
    throw new FakeLlmServerError(`--port: expected an integer from 0 to 65535, found ${JSON.stringify(value)}`);
  }
  return port;
}

function loopingScript(replies: readonly FakeReply[]): FakeScript {
  let next = 0;
  return () => {
    const reply = replies[next % replies.length];
    next += 1;
    return reply;
  };
}

/**
 * The `fake-llm-server` command: parses the arguments, loads the script and starts the server.
 * Returns the running server, or undefined after printing the help. Bad arguments and script
 * files throw a FakeLlmServerError whose message is meant for the user.
 */
export async function runFakeLlmServerCli(
  argv: readonly string[],
  output: { stdout: CliOutput; stderr: CliOutput },
): Promise<FakeLlmServer | undefined> {
  let values: { script?: string; port?: string; host?: string; loop?: boolean; quiet?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        script: { type: 'string', short: 's' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        loop: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new FakeLlmServerError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (values.help === true) {
    output.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  if (values.script === undefined) throw new FakeLlmServerError(`--script is required\n${USAGE}`);
  const port = parsePort(values.port);
  const file = await loadScriptFile(values.script);
  if (values.loop === true && file.replies.length === 0) {
    throw new FakeLlmServerError(`${values.script}: --loop needs at least one reply in the script`);
  }
  const isQuiet = values.quiet === true;
  const server = await startFakeLlmServer({
    script: values.loop === true ? loopingScript(file.replies) : file.replies,
    ...(port === undefined ? {} : { port }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(file.models === undefined ? {} : { models: file.models }),
    onRequest: (request) => {
      if (!isQuiet) output.stderr.write(`fake-llm-server: requests[${request.index}] ${request.method} ${request.path} -> ${request.outcome}\n`);
    },
  });
  const count = values.loop === true ? `${file.replies.length} replies, looping` : `${file.replies.length} replies`;
  output.stdout.write(`fake-llm-server listening on ${server.url} (${count} from ${values.script})\n`);
  return server;
}
