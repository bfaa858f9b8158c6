const agentbenchMarker = Symbol.for('agentbench.error');

/**
 * The base of every error an @agentbench package throws on purpose. Each package's own base
 * (`SchemasError`, `SandboxError`, `HarnessError`, ...) extends it and keeps its own marker.
 *
 * `isInstance` checks a `Symbol.for` marker rather than `instanceof`, so an error from another
 * copy of a package (two versions in node_modules, a bundled plugin) is still recognised. The CLI
 * reads it to tell a user's mistake (one line, exit 1) from a bug of ours (exit 2).
 */
export class AgentBenchError extends Error {
  readonly [agentbenchMarker] = true;
  override readonly name: string = 'AgentBenchError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  static isInstance(value: unknown): value is AgentBenchError {
    return typeof value === 'object' && value !== null && agentbenchMarker in value;
  }
}
