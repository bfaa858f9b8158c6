// Codex CLI for real, run by `ab` through the attempt gateway: the cases are the shared ones of
// installed-agent-through-ab.ts, scripted in codex's own shell tool over the Responses API.
import type { FakeReply, RecordedRequest } from '@agentbench/fake-llm-server';
import { describeInstalledAgentThroughAb } from './installed-agent-through-ab.js';

const WORKDIR = '/workspace/repo';

interface RequestBody {
  tools?: Array<{ name?: string; type?: string }>;
  input?: Array<{ type?: string }>;
}

/** Codex's shell tool as the request offers it: its name and arguments changed across versions. */
function shell(request: RecordedRequest, command: string): FakeReply {
  const names = ((request.body as RequestBody).tools ?? []).map((tool) => tool.name);
  if (names.includes('shell_command')) return { toolCalls: [{ name: 'shell_command', arguments: { command, workdir: WORKDIR } }] };
  if (names.includes('exec_command')) return { toolCalls: [{ name: 'exec_command', arguments: { cmd: command, workdir: WORKDIR } }] };
  return { toolCalls: [{ name: 'shell', arguments: { command: ['bash', '-lc', command], workdir: WORKDIR } }] };
}

describeInstalledAgentThroughAb(
  {
    name: 'codex',
    upstreamEnvironment: (server) => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-installed-agent-test' }),
    isTurn: (request) => request.path === '/v1/responses',
    isFirstOfSession: (request) => !((request.body as RequestBody).input ?? []).some((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output'),
    shell,
    // Codex retries a cut stream a few times, then gives up.
    outage: { fault: 'drop_connection' },
  },
  'installed-agent-codex.docker.test.ts',
);
