import { CassetteError } from '../errors/cassette-error.js';
import { LOOPBACK_FORWARDER_SCRIPT } from './loopback-forwarder-script.js';

/**
 * What the forwarder needs of a sandbox: one command run inside it. A `Sandbox` of
 * `@agentbench/sandbox` is one; the cassette does not depend on that package for it.
 */
export interface SandboxCommandRunner {
  exec(command: string[], options?: { timeoutSec?: number }): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

/** The forwarder running inside a sandbox, and what an agent there sets to reach the gateway through it. */
export interface LoopbackForwarder {
  /** The port it listens on, on the sandbox's 127.0.0.1. */
  readonly port: number;
  /**
   * `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL` pointing at the forwarder, and placeholder keys for
   * clients that refuse to start without one (the gateway replaces them with the real ones).
   */
  readonly environment: Readonly<Record<string, string>>;
}

/** The key an agent in the sandbox holds: not a credential; the gateway drops it and adds the real one. */
export const GATEWAY_PLACEHOLDER_KEY = 'agentbench-gateway-adds-the-key';

/**
 * Starts the loopback forwarder inside a sandbox: `python3` (which the runner image has for the
 * executor) listening on 127.0.0.1:`port` (0: any free port) and forwarding to `socketPath`, the
 * gateway's socket as mounted in the sandbox. Returns once it listens and reached the socket;
 * a sandbox that cannot (no python3, socket not mounted, port taken) fails with the reason.
 */
export async function startLoopbackForwarder(sandbox: SandboxCommandRunner, options: { socketPath: string; port?: number }): Promise<LoopbackForwarder> {
  const requestedPort = options.port ?? 0;
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65_535) {
    throw new CassetteError(`port: expected a TCP port 0-65535 (0: any free one), found ${String(options.port)}`);
  }
  // -I -S: the workspace is not on sys.path and PYTHON* variables are ignored, so nothing an agent wrote is imported.
  const result = await sandbox.exec(['python3', '-I', '-S', '-c', LOOPBACK_FORWARDER_SCRIPT, options.socketPath, String(requestedPort)], { timeoutSec: 30 });
  const port = Number(result.stdout.trim());
  if (result.exitCode !== 0 || !Number.isInteger(port) || port <= 0) {
    const reason = result.stderr.trim() || result.stdout.trim() || `exit code ${result.exitCode}`;
    // gVisor's runsc refuses host unix sockets (EPERM) unless it runs with --host-uds=open: say so, not just the errno.
    const gvisorHint = /Operation not permitted/.test(reason) ? ' (under gVisor the sandbox cannot connect to the gateway\'s unix socket: installed agents run with the default runtime, runc; see docs/agents.md)' : '';
    throw new CassetteError(`cannot start the loopback forwarder in the sandbox: ${reason.slice(0, 500)}${gvisorHint}`);
  }
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    environment: {
      OPENAI_BASE_URL: `${origin}/v1`,
      OPENAI_API_KEY: GATEWAY_PLACEHOLDER_KEY,
      ANTHROPIC_BASE_URL: origin,
      ANTHROPIC_API_KEY: GATEWAY_PLACEHOLDER_KEY,
    },
  };
}
