import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '@agentbench/sandbox';
import { useDockerTestContext } from '../../sandbox/test/helpers/docker-test-context.js';
import { findAgentDefinition } from '../src/definition/list-agent-definitions.js';
import type { AgentDefinition } from '../src/definition/load-agent-definition.js';
import { installAgent, type AgentInstallation } from '../src/install/install-agent.js';
import { runInstalledAgent } from '../src/run/run-installed-agent.js';

// Codex and Claude Code installed from npm by this file's own setup, into the host cache
// (~/.cache/agentbench/agents, or $AGENTBENCH_AGENTS_CACHE): the first run downloads them, later
// runs reuse the cache after checking its checksums. Then one sandbox with both mounted read-only
// runs them from the mounts. The image has no Node: they run by themselves. (Qwen Code on the
// Node 22 it mounts: claude-and-qwen-through-gateway.docker.test.ts.)
const context = await useDockerTestContext('installed-agents.docker.test.ts');
const describeDocker = context.skipReason === undefined ? describe : describe.skip;

describeDocker('installed agents in a Docker sandbox', () => {
  let codex: { definition: AgentDefinition; installation: AgentInstallation };
  let claude: { definition: AgentDefinition; installation: AgentInstallation };
  let command: { definition: AgentDefinition; installation: AgentInstallation };
  let sandbox: DockerSandbox;

  beforeAll(async () => {
    const install = async (name: string) => {
      const definition = await findAgentDefinition(name);
      return { definition, installation: await installAgent(definition) };
    };
    codex = await install('codex');
    claude = await install('claude-code');
    command = await install('command');
    // Two agents in one sandbox: each at its own mount point.
    sandbox = await context.createSandbox({
      readOnlyMounts: [
        { hostPath: codex.installation.folder ?? '', sandboxPath: '/opt/agentbench/agent' },
        { hostPath: claude.installation.folder ?? '', sandboxPath: '/opt/agentbench/claude' },
      ],
    });
  }, 900_000);
  afterAll(async () => {
    await sandbox?.dispose();
  });

  it('runs codex --version and claude --version from the read-only mounts', async () => {
    const codexVersion = await sandbox.exec([codex.installation.binary ?? '', '--version']);
    expect(codexVersion.stdout.trim()).toBe(`codex-cli ${codex.definition.version}`);
    const claudeBinary = (claude.installation.binary ?? '').replace('/opt/agentbench/agent', '/opt/agentbench/claude');
    const claudeVersion = await sandbox.exec([claudeBinary, '--version'], { env: { IS_SANDBOX: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', HOME: '/tmp' } });
    expect(claudeVersion.stdout.trim()).toBe(`${claude.definition.version} (Claude Code)`);
  });

  it('mounts them read-only: the sandbox cannot change the host cache', async () => {
    const written = await sandbox.exec(['sh', '-c', 'touch /opt/agentbench/agent/planted 2>&1; echo "exit $?"']);
    expect(written.stdout).toMatch(/Read-only file system[\s\S]*exit 1/);
  });

  it('runs the generic command agent: instruction file, env, files, /dev/null stdin, output stream', async () => {
    const run = await runInstalledAgent({
      sandbox,
      ...command,
      instruction: 'Fix the bug in calc.py.',
      baseUrl: 'http://127.0.0.1:4010',
      model: 'fake-model',
      command: 'cat "$AGENTBENCH_INSTRUCTION_FILE"; echo; echo "base=$OPENAI_BASE_URL model=$OPENAI_MODEL home=$HOME"; readlink /proc/self/fd/0; pwd; echo changed > answer.txt',
      timeoutSec: 60,
    });
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, format: 'text' });
    const lines = run.output.trim().split('\n');
    expect(lines[0]).toBe('Fix the bug in calc.py.');
    expect(lines[1]).toMatch(/^base=http:\/\/127\.0\.0\.1:4010\/v1 model=fake-model home=\/tmp\/agentbench-agent-home\.\w+$/);
    // stdin is the null device itself, not the executor's pipe.
    expect(lines.slice(2)).toEqual(['/dev/null', sandbox.workdir]);
    expect(new TextDecoder().decode(await sandbox.readFile('answer.txt'))).toBe('changed\n');
    // Its HOME is gone once it ends.
    const homes = await sandbox.exec(['sh', '-c', 'ls -d /tmp/agentbench-agent-home.* 2>/dev/null | wc -l']);
    expect(homes.stdout.trim()).toBe('0');
  });

  it('writes an agent\'s config files and kills it at the time limit', async () => {
    const run = await runInstalledAgent({
      sandbox,
      ...codex,
      definition: { ...codex.definition, command: ['/bin/sh', '-c', 'cat "$CODEX_HOME/config.toml"; sleep 30'] },
      instruction: 'unused',
      baseUrl: 'http://127.0.0.1:4010/',
      model: 'gpt-test',
      timeoutSec: 2,
    });
    expect(run).toMatchObject({ exitCode: 124, timedOut: true });
    expect(run.output).toContain('base_url = "http://127.0.0.1:4010/v1"');
    expect(run.output).toContain('wire_api = "responses"');
    expect(run.output).toContain('model = "gpt-test"');
  });
});
