// Claude Code and Qwen Code for real, each in a `--network none` Docker sandbox: installed from npm
// by this file's own setup (into the host cache, $AGENTBENCH_AGENTS_CACHE or ~/.cache/agentbench/agents),
// mounted read-only, reaching the model only through the attempt gateway's socket and the loopback
// forwarder, with @agentbench/fake-llm-server (scripted with each agent's own tool calls) upstream
// on the host. Each fixes calc.py; the runner writes events.jsonl from its stream and the gateway's
// exchanges. Then, as an agent in the same sandbox, a probe: no network but the forwarder, no key.
// And gVisor: refused with the reason (when the engine has it registered).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AttemptGateway } from '@agentbench/cassette';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '@agentbench/fake-llm-server';
import { checkGvisorRegistered, GVISOR_RUNTIME, type DockerSandbox } from '@agentbench/sandbox';
import { AgentEventSchema, type AgentEvent } from '@agentbench/schemas';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REACH_PROBE_HEAD } from '../../../test-support/reach-probe.js';
import { SANDBOX_KEY_SEARCH } from '../../../test-support/sandbox-key-search.js';
import { fakeServerUpstreams, gatewaySandboxes } from '../../cassette/test/helpers/gateway-sandboxes.js';
import { useDockerTestContext } from '../../sandbox/test/helpers/docker-test-context.js';
import { findAgentDefinition } from '../src/definition/list-agent-definitions.js';
import type { AgentDefinition } from '../src/definition/load-agent-definition.js';
import { installAgent, type AgentInstallation } from '../src/install/install-agent.js';
import { runInstalledAgent } from '../src/run/run-installed-agent.js';

const context = await useDockerTestContext('claude-and-qwen-through-gateway.docker.test.ts');
const describeDocker = context.skipReason === undefined ? describe : describe.skip;
// Two halves, joined here: the probe's own command line then holds neither.
const KEY_HALVES = ['sk-installed-agents-', 'probe-3b9e71c4'] as const;
const UPSTREAM_KEY = KEY_HALVES.join('');
const BROKEN = 'def add(a, b):\n    return a - b\n';
const FIXED = 'def add(a, b):\n    return a + b\n';
const INSTRUCTION = 'Fix the bug in calc.py so that add returns the sum of its arguments.';

/** The scripted turns, in each agent's own tools (as the trajectories fixtures were captured). */
function turnsFor(agent: 'claude-code' | 'qwen-code', file: string): FakeReply[] {
  if (agent === 'claude-code') {
    return [
      { text: 'Let me look at the code.', toolCalls: [{ name: 'Bash', arguments: { command: 'cat calc.py', description: 'Show calc.py' } }] },
      { toolCalls: [{ name: 'Write', arguments: { file_path: file, content: FIXED } }] },
      'Fixed the bug in calc.py.',
    ];
  }
  return [
    { text: 'Let me look at the code.', toolCalls: [{ name: 'run_shell_command', arguments: { command: 'cat calc.py', description: 'Show calc.py', is_background: false } }] },
    // Qwen Code refuses to overwrite a file it has not read in the session.
    { toolCalls: [{ name: 'read_file', arguments: { file_path: file } }] },
    { toolCalls: [{ name: 'write_file', arguments: { file_path: file, content: FIXED } }] },
    'Fixed the bug in calc.py.',
  ];
}

/** Run as an installed agent (the `command` agent: its env, its HOME): what it can reach, from inside. */
const REACH_PROBE = String.raw`${REACH_PROBE_HEAD}
host_port, forwarder_port = int(sys.argv[1]), int(sys.argv[2])
print('interfaces', sorted(os.listdir('/sys/class/net')))
attempt('dns', lambda: socket.getaddrinfo('registry.npmjs.org', 443))
attempt('tcp-public', lambda: socket.create_connection(('1.1.1.1', 443), timeout=5))
attempt('tcp-docker0', lambda: socket.create_connection(('172.17.0.1', host_port), timeout=5))
attempt('tcp-host-loopback', lambda: socket.create_connection(('127.0.0.1', host_port), timeout=5))
attempt('tcp-forwarder', lambda: socket.create_connection(('127.0.0.1', forwarder_port), timeout=5))
`;

/** One word for `sh -c`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

describeDocker('Claude Code and Qwen Code in a sandbox, scripted through the gateway', () => {
  let folder: string;
  let upstream: FakeLlmServer;
  let turns: FakeReply[] = [];
  const gateways = gatewaySandboxes();

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'installed-agents-claude-qwen-'));
    // One upstream for both: each attempt sets its agent's turns; side requests (titles, summaries) carry no tools and get a plain answer.
    upstream = await startFakeLlmServer({
      models: ['fake-model'],
      script: (request) => {
        const body = request.body as { tools?: unknown[] } | undefined;
        if (!Array.isArray(body?.tools) || body.tools.length === 0) return 'ok';
        return turns.shift() ?? 'Done.';
      },
    });
  });
  afterAll(async () => {
    await gateways.closeAll();
    await upstream?.close();
    await rm(folder, { recursive: true, force: true });
  });

  /** One attempt: its gateway (its own cassette), a sandbox with the gateway's socket and the agent mounted, calc.py broken, the forwarder started. */
  async function attempt(name: string, installation: AgentInstallation): Promise<{ gateway: AttemptGateway; sandbox: DockerSandbox; port: number }> {
    const cassette = path.join(folder, name, 'cassette.jsonl');
    const upstreams = fakeServerUpstreams(upstream.url, { openai: UPSTREAM_KEY, anthropic: UPSTREAM_KEY });
    const { gateway, sandbox, port } = await gateways.open({ cassette, upstream: upstreams }, (mount) => context.createSandbox({ hasNetwork: false, readOnlyMounts: [mount, ...installation.mounts] }));
    await sandbox.writeFile('calc.py', BROKEN);
    return { gateway, sandbox, port };
  }

  /** Runs the agent scripted to fix calc.py; checks the file, the model requests and the events the runner wrote. */
  async function fixesCalc(agentName: 'claude-code' | 'qwen-code', definition: AgentDefinition, installation: AgentInstallation): Promise<{ sandbox: DockerSandbox; port: number; events: AgentEvent[] }> {
    const { gateway, sandbox, port } = await attempt(agentName, installation);
    turns = turnsFor(agentName, `${sandbox.workdir}/calc.py`);
    const requestsBefore = upstream.requests.length;
    const eventsFile = path.join(folder, agentName, 'events.jsonl');
    const run = await runInstalledAgent({
      sandbox,
      definition,
      installation,
      instruction: INSTRUCTION,
      baseUrl: `http://127.0.0.1:${port}`,
      model: 'fake-model',
      timeoutSec: 180,
      events: { file: eventsFile, runId: `run-${agentName}`, taskId: 'toy_calc', gateway },
    });
    expect(run, `${agentName} stderr: ${run.stderr.slice(0, 2000)}`).toMatchObject({ exitCode: 0, timedOut: false, stopReason: 'SUCCESS' });
    // The change is in the sandbox's workspace, where the verdict reads it.
    expect(new TextDecoder().decode(await sandbox.readFile('calc.py'))).toBe(FIXED);
    expect((await sandbox.exec(['python3', '-c', 'from calc import add; assert add(2, 3) == 5; print("sum ok")'])).stdout).toBe('sum ok\n');
    // The instruction reached the model, with the key added on the host and not the agent's stand-in.
    const requests = upstream.requests.slice(requestsBefore).filter((request) => /\/(messages|chat\/completions)$/.test(request.path));
    expect(JSON.stringify(requests.map((request) => request.body))).toContain('calc.py so that add returns the sum');
    for (const request of requests) expect(JSON.stringify(request.headers)).toContain(UPSTREAM_KEY);
    expect(turns).toEqual([]);

    const lines = (await readFile(eventsFile, 'utf8')).trim().split('\n');
    const events = lines.map((line) => {
      const parsed = v.safeParse(AgentEventSchema, JSON.parse(line));
      expect(parsed.issues, line).toBeUndefined();
      return parsed.output as AgentEvent;
    });
    const kinds = events.map((event) => event.event_type);
    expect(kinds[0]).toBe('run_started');
    expect(events[0]?.payload).toMatchObject({ task_id: 'toy_calc', variant: agentName, agent_version: definition.version });
    expect(kinds.at(-1)).toBe('agent_stopped');
    expect(events.at(-1)?.payload).toMatchObject({ stop_reason: 'SUCCESS' });
    // The model turns are the gateway's recorded answers (its usage), the commands and the changed file the agent's stream.
    const recorded = await gateway.recordedExchanges();
    const turnsWithTools = recorded.filter((exchange) => exchange.role === 'agent').length;
    expect(kinds.filter((kind) => kind === 'llm_request_finished').length).toBeGreaterThanOrEqual(turnsWithTools - 1);
    const finished = events.filter((event) => event.event_type === 'llm_request_finished');
    expect(finished.every((event) => typeof event.payload.input_tokens === 'number')).toBe(true);
    const commands = events.filter((event) => event.event_type === 'tool_call_started' && event.payload.tool === 'run').map((event) => event.payload.params);
    expect(commands).toContainEqual({ command: 'cat calc.py' });
    const patches = events.filter((event) => event.event_type === 'patch_applied').map((event) => event.payload.files_changed);
    expect(patches).toContainEqual(['calc.py']);
    return { sandbox, port, events };
  }

  it('claude-code fixes calc.py through the Anthropic Messages API; events.jsonl has its turns, command and change; then, as an agent there, the probe reaches nothing but the forwarder and finds no key', async () => {
    const definition = await findAgentDefinition('claude-code');
    const installation = await installAgent(definition);
    const { sandbox, port } = await fixesCalc('claude-code', definition, installation);

    const command = await findAgentDefinition('command');
    const probe = await runInstalledAgent({
      sandbox,
      definition: command,
      installation: await installAgent(command),
      instruction: INSTRUCTION,
      baseUrl: `http://127.0.0.1:${port}`,
      model: 'fake-model',
      // Not /usr (the image's own files: the gateway's Docker test searches the bare image whole) nor /opt/agentbench
      // (the agent and its runtime, checksummed npm installs): the rest is what the agent's run could have written or
      // been given (its HOME under /tmp, the workspace, /etc, /run...).
      command: [
        `python3 -I -c ${shellQuote(REACH_PROBE)} ${upstream.port} ${port}`,
        `python3 -I -c ${shellQuote(SANDBOX_KEY_SEARCH)} ${KEY_HALVES.join(' ')} --skip /usr /opt/agentbench`,
      ].join('; '),
      timeoutSec: 240,
    });
    expect(probe.stderr).toBe('');
    const lines = probe.output.trim().split('\n');
    expect(lines.slice(0, 7)).toEqual([
      "interfaces ['lo']",
      'dns failed gaierror',
      'tcp-public failed OSError',
      'tcp-docker0 failed OSError',
      'tcp-host-loopback failed ConnectionRefusedError',
      'tcp-forwarder reached',
      'found []',
    ]);
    expect(lines[7]).toMatch(/^searched \d{3,} files$/);
  }, 600_000);

  it('qwen-code, on the Node 22 it mounts, fixes calc.py through Chat Completions; events.jsonl has its turns, command and change', async (test) => {
    const definition = await findAgentDefinition('qwen-code');
    let installation: AgentInstallation;
    try {
      installation = await installAgent(definition);
    } catch (error) {
      const runtime = definition.runtime === 'none' ? undefined : definition.runtime.package;
      // Only the runtime may be missing (a registry without that platform's Node); the agent itself must install.
      if (runtime === undefined || !String((error as Error).message).includes(runtime)) throw error;
      test.skip(`qwen-code's Node runtime (${runtime}) cannot be installed here: ${(error as Error).message}`);
      return;
    }
    const { sandbox } = await fixesCalc('qwen-code', definition, installation);
    // It ran on the Node 22 mounted beside it: the image has none.
    expect((await sandbox.exec(['sh', '-c', 'command -v node || echo no-node'])).stdout.trim()).toBe('no-node');
  }, 600_000);

  it('refuses an installed agent under gVisor, naming the runtime and the way out', async (test) => {
    const gvisor = await checkGvisorRegistered(context.docker);
    if (!gvisor.isRegistered) {
      test.skip(`gVisor is not registered with the engine: ${gvisor.reason ?? ''}`);
      return;
    }
    const command = await findAgentDefinition('command');
    const sandbox = await context.createSandbox({ hasNetwork: false, runtime: GVISOR_RUNTIME });
    try {
      await expect(
        runInstalledAgent({ sandbox, definition: command, installation: await installAgent(command), instruction: 'x', baseUrl: 'http://127.0.0.1:4010', model: 'fake-model', command: 'echo ran > ran.txt', timeoutSec: 30 }),
      ).rejects.toThrow(`installed agent "command" cannot run under gVisor (runtime "${GVISOR_RUNTIME}"): the sandbox could not reach the model gateway's unix socket, which runsc allows only with --host-uds=open`);
      // Refused before anything ran.
      expect((await sandbox.exec(['sh', '-c', 'ls ran.txt 2>/dev/null | wc -l'])).stdout.trim()).toBe('0');
    } finally {
      await sandbox.dispose();
    }
  }, 120_000);
});
