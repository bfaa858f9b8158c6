import { readdir, readFile } from 'node:fs/promises';
import { afterEach, it } from 'vitest';
import { createSandbox } from '../registry/create-sandbox.js';
import { sandboxBackendDefinition } from '../registry/default-registry.js';
import type { SandboxBackendPromises } from '../registry/sandbox-backend.js';
import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import type { ConformanceCheckId, PromisesNotKept, SandboxConformanceOptions } from './conformance-options.js';

/** What a backend that declares nothing is taken to promise: nothing. */
const NO_PROMISES: SandboxBackendPromises = { isolation: 'none', cutsNetwork: false, limits: 'ignored' };

/** The promise a check tests, named in its title: one of the backend's declared promises or a part of the `Sandbox` contract. */
export type ConformancePromise = keyof SandboxBackendPromises | keyof PromisesNotKept | 'exec' | 'io' | 'output' | 'timeouts' | 'files' | 'cleanup';

/** What every group of checks shares: the options, the backend's promises, and sandboxes disposed after each check. */
export interface ConformanceContext {
  options: SandboxConformanceOptions;
  promises: SandboxBackendPromises;
  /** Makes a sandbox from the base spec, `spec`, then the overlay; disposed after the check. */
  sandbox(spec?: SandboxSpec): Promise<Sandbox>;
  /** The spec a sandbox made with `spec` gets (for a check that makes its sandbox in another process). */
  specFor(spec?: SandboxSpec): SandboxSpec;
  /** Registers one check: `[promise] title`, skipped with the reason in its title when `options.skips` names it. */
  check(id: ConformanceCheckId, promise: ConformancePromise, title: string, body: (skip: (reason: string) => never) => Promise<void>, timeoutMs?: number): void;
}

export function conformanceContext(options: SandboxConformanceOptions): ConformanceContext {
  const promises = options.promises ?? sandboxBackendDefinition(options.backend)?.promises ?? NO_PROMISES;
  const made: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((sandbox) => sandbox.dispose().catch(() => undefined)));
  });
  const specFor = (spec: SandboxSpec = {}): SandboxSpec => {
    const base = options.spec ?? {};
    const labels = { ...base.labels, ...spec.labels };
    return { ...base, ...spec, ...options.specOverlay, ...(Object.keys(labels).length > 0 ? { labels } : {}) };
  };
  return {
    options,
    promises,
    specFor,
    async sandbox(spec) {
      const full = specFor(spec);
      const sandbox = options.create !== undefined ? await options.create(full) : await createSandbox(options.backend, full, { backendOptions: options.backendOptions });
      made.push(sandbox);
      return sandbox;
    },
    check(id, promise, title, body, timeoutMs = 90_000) {
      const fullTitle = `[${promise}] ${title}`;
      const skipReason = options.skips?.[id];
      if (skipReason !== undefined) {
        it.skip(`${fullTitle} (skipped: ${skipReason})`, () => undefined);
        return;
      }
      it(
        fullTitle,
        async (testContext) => {
          await body((reason) => testContext.skip(reason));
        },
        timeoutMs,
      );
    },
  };
}

/** A number of seconds for `sleep` no other process uses, so a check finds exactly its own processes. */
export function uniqueMarker(): string {
  return `${1000 + Math.floor(Math.random() * 1000)}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Live (not zombie) host processes whose command line holds `marker`, by pid (what `/proc` of this host shows). */
export async function hostProcessesWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const commandLine = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      const status = await readFile(`/proc/${name}/status`, 'utf8');
      if (commandLine.includes(marker) && !/^State:\s+Z/m.test(status)) found.push(Number(name));
    } catch {
      // Gone while looking.
    }
  }
  return found;
}

/** Live `sleep <marker>` processes as the sandbox itself sees them (`ps` inside): works where the host cannot see in. */
export async function sandboxSleepers(sandbox: Sandbox, marker: string): Promise<string[]> {
  const listing = await sandbox.exec(['ps', '-eo', 'stat=,args=']);
  if (listing.exitCode !== 0) throw new Error(`ps failed in the sandbox (the suite needs procps in the image): ${listing.stderr}`);
  return listing.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => new RegExp(`^\\S+\\s+sleep ${marker.replace(/\./g, '\\.')}$`).test(line) && !line.startsWith('Z'));
}

/** Polls `condition` until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(condition: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}
