import { afterEach, expect } from 'vitest';
import type { ConformanceContext } from './conformance-context.js';
import { startHostListener, type HostListener } from './host-listener.js';

/**
 * `cutsNetwork`: without network a command reaches nothing beyond the sandbox, and `setNetwork(false)` cuts what
 * is running. A backend that does not promise it (local) is checked for what it documents: the host's network,
 * loopback included, is always there, and `setNetwork` changes nothing.
 */
export function registerNetworkChecks(context: ConformanceContext): void {
  const cuts = context.promises.cutsNetwork;
  let listener: HostListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  context.check(
    'network.off-by-default',
    'cutsNetwork',
    cuts ? 'starts without network: a listener on any host address is unreachable' : 'does not cut the network (documented): a host listener, on loopback too, is reachable without hasNetwork',
    async () => {
      listener = await startHostListener();
      const sandbox = await context.sandbox();
      const seen = await listener.probe(sandbox);
      if (cuts) expect(seen).toBe('unreachable');
      else expect(seen).toMatch(/^reply:/);
    },
  );

  const noReconnect = cuts ? context.options.notKept?.networkReconnects : undefined;
  context.check(
    'network.switch',
    noReconnect === undefined ? 'cutsNetwork' : 'networkReconnects',
    noReconnect !== undefined
      ? `reaches the host with hasNetwork, not after setNetwork(false); setNetwork(true) is then refused and the sandbox stays cut off and usable (documented: ${noReconnect.why})`
      : cuts
        ? 'reaches the host with hasNetwork, not after setNetwork(false), again after setNetwork(true)'
        : 'setNetwork(false) changes nothing (documented): the host stays reachable',
    async () => {
      listener = await startHostListener();
      const sandbox = await context.sandbox({ hasNetwork: true });
      expect(await listener.probe(sandbox)).toMatch(/^reply:/);
      await sandbox.setNetwork(false);
      if (noReconnect !== undefined) {
        expect(await listener.probe(sandbox)).toBe('unreachable');
        await expect(sandbox.setNetwork(true)).rejects.toThrow(noReconnect.refusal);
        expect(await listener.probe(sandbox)).toBe('unreachable');
        expect(await sandbox.exec(['echo', 'ok'])).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
        return;
      }
      if (cuts) expect(await listener.probe(sandbox)).toBe('unreachable');
      else expect(await listener.probe(sandbox)).toMatch(/^reply:/);
      await sandbox.setNetwork(false);
      await sandbox.setNetwork(true);
      expect(await listener.probe(sandbox)).toMatch(/^reply:/);
    },
  );

  context.check(
    'network.cut-running-connection',
    'cutsNetwork',
    cuts ? 'a running connection is cut by setNetwork(false): it fails or its command is ended' : 'a running connection survives setNetwork(false) (documented)',
    async () => {
      listener = await startHostListener();
      const sandbox = await context.sandbox({ hasNetwork: true });
      let onConnected: () => void = () => undefined;
      const connected = new Promise<void>((resolve) => {
        onConnected = resolve;
      });
      // Long enough that only a cut ends it early; a backend that cuts nothing is asked for 3 s of conversation.
      const conversation = listener.converse(sandbox, cuts ? 40 : 3, () => onConnected());
      await Promise.race([connected, conversation]);
      await sandbox.setNetwork(false);
      const ended = await conversation;
      expect(ended.stdout, ended.stderr).toMatch(/^connected\n/);
      if (cuts) {
        const wasEnded = ended.exitCode === 137 && ended.killedBy === 'abort';
        expect(wasEnded || /\ncut:/.test(ended.stdout), `the conversation went on: ${JSON.stringify(ended)}`).toBe(true);
      } else {
        expect(ended).toMatchObject({ exitCode: 0, stdout: 'connected\nsurvived\n' });
      }
    },
    120_000,
  );
}
