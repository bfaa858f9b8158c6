import type { Sandbox } from '@agentbench/sandbox';
import { startAttemptGateway, type AttemptGateway, type AttemptGatewayOptions } from '../../src/proxy/attempt-gateway.js';
import type { Upstreams } from '../../src/proxy/gateway-upstreams.js';

// Test helpers for Docker tests that drive a sandbox through an attempt gateway (the cassette's and the installed agents').

/** A gateway, the sandbox its forwarder runs in, and what the sandbox's client is pointed at. */
export interface GatewaySandbox<S extends Sandbox> {
  gateway: AttemptGateway;
  sandbox: S;
  port: number;
  environment: Readonly<Record<string, string>>;
}

/** Both wire APIs of one fake LLM server (`…/v1`): OpenAI's at its URL, Anthropic's at its root, each with the key the host adds. */
export function fakeServerUpstreams(serverUrl: string, keys: { openai: string; anthropic: string }): Upstreams {
  return { openai: { baseUrl: serverUrl, apiKey: keys.openai }, anthropic: { baseUrl: serverUrl.replace(/\/v1$/, ''), apiKey: keys.anthropic } };
}

/** Opens gateways with a sandbox each; `closeAll` (in the block's `afterAll`) disposes every sandbox and closes every gateway. */
export interface GatewaySandboxes {
  /** Starts a gateway, makes a sandbox with `createSandbox(gateway.mount)` (the socket folder to mount read-only) and starts the forwarder in it. */
  open<S extends Sandbox>(options: AttemptGatewayOptions, createSandbox: (gatewayMount: AttemptGateway['mount']) => Promise<S>): Promise<GatewaySandbox<S>>;
  closeAll(): Promise<void>;
}

export function gatewaySandboxes(): GatewaySandboxes {
  const opened: { gateway: AttemptGateway; sandbox?: Sandbox }[] = [];
  return {
    async open(options, createSandbox) {
      const gateway = await startAttemptGateway(options);
      // Kept before the sandbox exists, so a failed sandbox start still closes the gateway.
      const entry: { gateway: AttemptGateway; sandbox?: Sandbox } = { gateway };
      opened.push(entry);
      const sandbox = await createSandbox(gateway.mount);
      entry.sandbox = sandbox;
      const forwarder = await gateway.startForwarder(sandbox);
      return { gateway, sandbox, port: forwarder.port, environment: forwarder.environment };
    },
    async closeAll() {
      for (const { gateway, sandbox } of opened.splice(0)) {
        await sandbox?.dispose();
        await gateway.close();
      }
    },
  };
}
