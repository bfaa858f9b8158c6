import { describe } from 'vitest';
import { registerCleanupChecks } from './cleanup.js';
import { conformanceContext } from './conformance-context.js';
import { CONTRACT_PROMISES_THAT_MAY_BE_NOT_KEPT, type SandboxConformanceOptions } from './conformance-options.js';
import { registerExitAndSignalChecks } from './exit-and-signals.js';
import { registerFileAndPathSafetyChecks } from './files-and-path-safety.js';
import { registerHostIsolationChecks } from './host-isolation.js';
import { registerIoEnvCwdChecks } from './io-env-cwd.js';
import { registerLimitChecks } from './limits.js';
import { registerNetworkChecks } from './network.js';
import { registerOutputChecks } from './output.js';
import { registerTimeoutAndProcessTreeChecks } from './timeouts-and-process-tree.js';

/**
 * Registers the sandbox conformance suite as vitest tests, inside a `describe` named after the backend: what the
 * `Sandbox` interface promises (exit codes, io, output caps, timeouts, files and path safety, cleanup) and what the
 * backend declares (`isolation`, `cutsNetwork`, `limits`; a promise it does not make is checked for the documented
 * behaviour instead). Call it at the top level of a test file.
 */
export function describeSandboxConformance(options: SandboxConformanceOptions): void {
  if (typeof options.backend !== 'string' || options.backend === '') {
    throw new TypeError(`describeSandboxConformance: options.backend: expected a backend name such as "docker", found ${JSON.stringify(options.backend)}`);
  }
  if (options.create !== undefined && typeof options.create !== 'function') {
    throw new TypeError(`describeSandboxConformance: options.create: expected a function (spec) => Promise<Sandbox>, found ${typeof options.create}`);
  }
  checkNotKept(options.notKept);
  const title = `sandbox conformance: ${options.backend}${options.specOverlay === undefined ? '' : ` with ${JSON.stringify(options.specOverlay)}`}`;
  if (options.skipReason !== undefined) {
    describe.skip(`${title} (skipped: ${options.skipReason})`, () => undefined);
    return;
  }
  describe(title, () => {
    const context = conformanceContext(options);
    describe('exit codes and signals', () => registerExitAndSignalChecks(context));
    describe('stdin, env and cwd', () => registerIoEnvCwdChecks(context));
    describe('output', () => registerOutputChecks(context));
    describe('timeouts and the process tree', () => registerTimeoutAndProcessTreeChecks(context));
    describe('files and path safety', () => registerFileAndPathSafetyChecks(context));
    describe('network', () => registerNetworkChecks(context));
    describe('limits', () => registerLimitChecks(context));
    describe('host isolation', () => registerHostIsolationChecks(context));
    describe('cleanup', () => registerCleanupChecks(context));
  });
}

function checkNotKept(notKept: SandboxConformanceOptions['notKept']): void {
  if (notKept === undefined) return;
  const where = 'describeSandboxConformance: options.notKept';
  if (typeof notKept !== 'object' || notKept === null) throw new TypeError(`${where}: expected an object such as { networkReconnects: { why, refusal } }, found ${typeof notKept}`);
  for (const [name, declaration] of Object.entries(notKept) as Array<[string, Record<string, unknown> | undefined]>) {
    if (!(CONTRACT_PROMISES_THAT_MAY_BE_NOT_KEPT as readonly string[]).includes(name)) {
      throw new TypeError(`${where}: "${name}" is not a promise that may be declared not kept; expected one of ${CONTRACT_PROMISES_THAT_MAY_BE_NOT_KEPT.join(', ')}`);
    }
    if (typeof declaration?.['why'] !== 'string' || declaration['why'] === '') throw new TypeError(`${where}.${name}.why: expected the documented behaviour as text`);
    const pattern = name === 'memoryLimitEndsOnlyTheCommand' || name === 'pidsLimitEndsOnlyTheCommand' ? 'endedError' : name === 'networkReconnects' ? 'refusal' : undefined;
    if (pattern !== undefined && !(declaration?.[pattern] instanceof RegExp)) throw new TypeError(`${where}.${name}.${pattern}: expected a RegExp the error message matches`);
  }
}
