import { GVISOR_RUNTIME, type ExecResult, type Sandbox } from '@agentbench/sandbox';
import type { StopReason } from '@agentbench/schemas';
import type { AgentTrajectory } from '@agentbench/trajectories';
import { fillPlaceholders, type Placeholder } from '../definition/agent-definition-schema.js';
import type { AgentDefinition } from '../definition/load-agent-definition.js';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import type { AgentInstallation } from '../install/install-agent.js';
import { agentStopReason, agentTrajectory, writeAgentEvents, type AgentEventsOptions } from './agent-events.js';

export interface RunInstalledAgentOptions {
  sandbox: Sandbox;
  definition: AgentDefinition;
  /** From `installAgent`: its mounts must be the sandbox's `readOnlyMounts` (the local backend sees the host folders as they are). */
  installation: AgentInstallation;
  /** The instruction text (`buildInstruction(...).text`). */
  instruction: string;
  /** The model endpoint as the sandbox reaches it, without `/v1`: the gateway's loopback forwarder, such as `http://127.0.0.1:4010`. */
  baseUrl: string;
  model: string;
  /** What the agent sends as its key. Default a stand-in: the gateway adds the real key on the host, so none enters the sandbox. */
  apiKey?: string;
  /** The command line of the generic `command` agent (its `{command}`). */
  command?: string;
  /** The folder the agent starts in, and its `{workspace}`: the task's repository when it is a subfolder of the workdir. Default: the sandbox's workdir. */
  cwd?: string;
  /** Seconds before the agent's whole process tree is killed (exit code 124, `timedOut`). */
  timeoutSec: number;
  signal?: AbortSignal;
  /** Each chunk of the agent's stdout as it comes. */
  onOutput?: (chunk: string) => void;
  /** Bytes of stdout (and of stderr) kept in the result. Default 16 MiB. */
  outputCapBytes?: number;
  /**
   * Writes the attempt's `events.jsonl` once the agent ended: its own stream (read as its
   * definition's `output.format`) merged with the gateway's recorded exchanges, as model turns,
   * commands and changed files, in the event shapes our agent loop writes.
   */
  events?: AgentEventsOptions;
}

/** How the agent's command ended, with its raw output stream to read in `format`. */
export interface InstalledAgentRun {
  /** The agent's stdout as it printed it (bounded by `outputCapBytes`, with a marker where bytes were dropped). */
  output: string;
  stderr: string;
  /** `output.format` of the definition: how to read `output` (`codex-json`, `claude-stream-json`, `qwen-json`, `text`). */
  format: string;
  exitCode: number;
  timedOut: boolean;
  killedBy: ExecResult['killedBy'];
  truncated: boolean;
  durationMs: number;
  /** With `events`: the steps written to `events.jsonl`, and why the agent stopped (its `agent_stopped`). */
  trajectory?: AgentTrajectory;
  stopReason?: StopReason;
}

/** The agent's HOME and config folder: /tmp is writable in every backend and is not part of the workspace's diff. */
const HOME_TEMPLATE = '/tmp/agentbench-agent-home.XXXXXX';
const DEFAULT_API_KEY = 'agentbench-gateway-adds-the-key';
const DEFAULT_OUTPUT_CAP_BYTES = 16 * 1024 * 1024;
// Goes into config files (TOML, JSON) as is: no quote, backslash, space or control character.
const MODEL_NAME = /^[A-Za-z0-9._:/@+-]{1,200}$/;
// Runs the agent with the runtime first on PATH, and stdin on /dev/null: codex waits on an open stdin.
const LAUNCHER = 'if [ -n "$1" ]; then PATH="$1:$PATH"; export PATH; fi; shift; exec "$@" </dev/null';
const WRITE_FILE = 'mkdir -p "$(dirname "$1")" && cat > "$1"';

/**
 * Runs an installed agent's command in a sandbox: writes its config files and the instruction file
 * into a fresh HOME under /tmp, sets its env, starts its command line (no shell between the words
 * and the instruction, stdin from /dev/null) under a time limit, and returns its raw output stream.
 * Reading the stream (events, trajectory) and deciding the verdict are the caller's.
 */
export async function runInstalledAgent(options: RunInstalledAgentOptions): Promise<InstalledAgentRun> {
  const { sandbox, definition } = options;
  refuseGvisor(sandbox, definition.name);
  const values = placeholderValues(options);
  const made = await sandbox.exec(['mktemp', '-d', HOME_TEMPLATE], { timeoutSec: 30 });
  const home = made.stdout.trim();
  if (made.exitCode !== 0 || !home.startsWith('/tmp/agentbench-agent-home.')) {
    throw new InstalledAgentError(`cannot make the agent's HOME in the sandbox (mktemp exited ${made.exitCode}): ${made.stderr.trim().slice(0, 300)}`);
  }
  values.home = home;
  values.instruction_file = `${home}/instruction.md`;
  try {
    const files: Array<[string, string]> = [
      [values.instruction_file, options.instruction],
      ...Object.entries(definition.files).map(([target, content]): [string, string] => [fillPlaceholders(target, values), fillPlaceholders(content, values)]),
    ];
    for (const [target, content] of files) {
      const written = await sandbox.exec(['/bin/sh', '-c', WRITE_FILE, 'agentbench-write', target], { stdin: content, timeoutSec: 30 });
      if (written.exitCode !== 0) throw new InstalledAgentError(`${definition.file}: cannot write ${target} in the sandbox: ${written.stderr.trim().slice(0, 300)}`);
    }
    const env: Record<string, string> = { HOME: home };
    for (const [name, value] of Object.entries(definition.env)) env[name] = fillPlaceholders(value, values);
    const argv = definition.command.map((word) => fillPlaceholders(word, values));
    const result = await sandbox.exec(['/bin/sh', '-c', LAUNCHER, 'agentbench-agent', values.runtime ?? '', ...argv], {
      cwd: values.workspace ?? sandbox.workdir,
      env,
      timeoutSec: options.timeoutSec,
      outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
      logName: `agent-${definition.name}`,
      ...(options.onOutput === undefined ? {} : { onStdout: options.onOutput }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const run: InstalledAgentRun = {
      output: result.stdout,
      stderr: result.stderr,
      format: definition.output.format,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      killedBy: result.killedBy,
      truncated: result.truncated,
      durationMs: result.durationMs,
    };
    if (options.events === undefined) return run;
    const end = {
      output: result.stdout,
      format: definition.output.format,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      isAborted: result.killedBy === 'abort',
      workspace: sandbox.workdir,
      agentName: definition.name,
      agentVersion: definition.version,
      at: new Date().toISOString(),
    };
    const trajectory = await agentTrajectory(end, options.events.gateway);
    const stopReason = agentStopReason(end, trajectory, options.events.gateway);
    await writeAgentEvents(options.events, end, trajectory, stopReason);
    return { ...run, trajectory, stopReason };
  } finally {
    // The local backend's /tmp is the host's: leave nothing there. Best effort: a dead sandbox has nothing left to clean.
    await sandbox.exec(['rm', '-rf', '--', home], { timeoutSec: 30 }).catch(() => undefined);
  }
}

/**
 * gVisor refuses the sandbox a connection to a host unix socket (the gateway's) unless runsc runs
 * with `--host-uds=open`, which our runtime entry does not set: refused up front with the way out,
 * rather than an agent failing on EPERM at its first model request (docs/decisions.md, issue 25).
 */
function refuseGvisor(sandbox: Sandbox, agentName: string): void {
  // A DockerSandbox's runtime now (after any move to the runtime its cut network asked for).
  if ((sandbox as { runtimeName?: unknown }).runtimeName !== GVISOR_RUNTIME) return;
  throw new InstalledAgentError(
    `installed agent "${agentName}" cannot run under gVisor (runtime "${GVISOR_RUNTIME}"): the sandbox could not reach the model gateway's unix socket, which runsc allows only with --host-uds=open; run installed agents with the Docker backend's default runtime (runc), whose sandbox also has no network`,
  );
}

function placeholderValues(options: RunInstalledAgentOptions): Partial<Record<Placeholder, string>> {
  const { definition, installation } = options;
  if (installation.name !== definition.name) throw new InstalledAgentError(`the installation is of agent "${installation.name}", not "${definition.name}"`);
  if (definition.package !== undefined && installation.folder === undefined) {
    throw new InstalledAgentError(`agent "${definition.name}" is not installed: run installAgent first (\`ab agents install ${definition.name}\`)`);
  }
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new InstalledAgentError(`baseUrl: expected the model endpoint's URL inside the sandbox, such as "http://127.0.0.1:4010", found ${JSON.stringify(options.baseUrl)}`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new InstalledAgentError(`baseUrl: expected an http or https URL, found ${JSON.stringify(options.baseUrl)}`);
  if (!MODEL_NAME.test(options.model)) throw new InstalledAgentError(`model: expected a model name of letters, digits and . _ : / @ + -, found ${JSON.stringify(options.model)}`);
  const usesCommand = definition.command.some((word) => word.includes('{command}'));
  if (usesCommand && (options.command === undefined || options.command.trim() === '')) {
    throw new InstalledAgentError(`agent "${definition.name}" runs the command line you give: pass command (\`--agent-command "..."\`)`);
  }
  // The local backend has no mounts: it sees the host's folders where they are.
  const seesHost = options.sandbox.backend === 'local';
  const runtimeBinOnHost = installation.runtimeFolder !== undefined && definition.runtime !== 'none' ? `${installation.runtimeFolder}/${definition.runtime.bin}` : undefined;
  const values: Partial<Record<Placeholder, string>> = {
    instruction: options.instruction,
    model: options.model,
    base_url: baseUrl.href.replace(/\/+$/, ''),
    api_key: options.apiKey ?? DEFAULT_API_KEY,
    workspace: options.cwd ?? options.sandbox.workdir,
  };
  if (options.command !== undefined) values.command = options.command;
  if (installation.folder !== undefined && installation.binary !== undefined) {
    values.agent = seesHost ? installation.folder : installation.mounts[0]?.sandboxPath ?? '';
    values.binary = seesHost ? `${installation.folder}/${definition.binary ?? ''}` : installation.binary;
  }
  const runtime = seesHost ? runtimeBinOnHost : installation.runtimeBin;
  if (runtime !== undefined) values.runtime = runtime;
  return values;
}
