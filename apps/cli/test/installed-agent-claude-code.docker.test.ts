// Claude Code for real, run by `ab` through the attempt gateway: the cases are the shared ones of
// installed-agent-through-ab.ts, scripted in Claude Code's own Bash tool over the Anthropic Messages API.
import type { RecordedRequest } from '@agentbench/fake-llm-server';
import { describeInstalledAgentThroughAb } from './installed-agent-through-ab.js';

interface RequestBody {
  tools?: unknown[];
  messages?: Array<{ content?: unknown }>;
}

describeInstalledAgentThroughAb(
  {
    name: 'claude-code',
    // Anthropic's base URL is without /v1 (its SDK adds it).
    upstreamEnvironment: (server) => ({ ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ''), ANTHROPIC_API_KEY: 'sk-ant-installed-agent-test' }),
    isTurn: (request) => request.path.startsWith('/v1/messages') && ((request.body as RequestBody).tools ?? []).length > 0,
    isFirstOfSession: (request) => !((request.body as RequestBody).messages ?? []).some((message) => Array.isArray(message.content) && message.content.some((block: { type?: string }) => block.type === 'tool_result')),
    shell: (_request, command) => ({ toolCalls: [{ name: 'Bash', arguments: { command, description: 'Run a command' } }] }),
    // An overloaded upstream: Claude Code retries it (ten times over minutes, whatever x-should-retry or retry-after say) until the budget refuses.
    outage: { status: 503, body: { type: 'error', error: { type: 'overloaded_error', message: 'the upstream stopped' } } },
  },
  'installed-agent-claude-code.docker.test.ts',
);
