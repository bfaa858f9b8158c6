import { SandboxError } from '../contract/sandbox-error.js';
import type { Sandbox, SandboxSpec } from '../contract/sandbox.js';
import { assertSandboxBackendName } from './backend-name.js';
import type { SandboxBackend, SandboxBackendDefinition, SandboxBackendPromises } from './sandbox-backend.js';
import { isRecord } from '@agentbench/helpers';

/** What `listSandboxBackends` tells about one backend, without loading it. */
export interface SandboxBackendInfo {
  name: string;
  description: string;
  /** Undefined when the backend declares none: treat it as giving no isolation. */
  promises: SandboxBackendPromises | undefined;
}

interface Entry {
  definition: SandboxBackendDefinition;
  /** Set on the first create; cleared again when loading fails, so a later create retries. */
  loading?: Promise<SandboxBackend>;
}

const ISOLATION_LEVELS = new Set(['none', 'namespaces', 'container', 'virtual-machine']);
const LIMIT_PROMISES = new Set(['enforced', 'best-effort', 'ignored']);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function definitionProblems(definition: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof definition['description'] !== 'string' || definition['description'].trim() === '') problems.push('description: expected a non-empty string');
  if (typeof definition['load'] !== 'function') problems.push('load: expected a function returning a promise of {create(spec, options)}');
  const promises = definition['promises'];
  if (promises !== undefined) {
    if (!isRecord(promises)) problems.push('promises: expected {isolation, cutsNetwork, limits}');
    else {
      if (!ISOLATION_LEVELS.has(String(promises['isolation']))) problems.push(`promises.isolation: expected one of ${[...ISOLATION_LEVELS].join(', ')}, found ${JSON.stringify(promises['isolation'])}`);
      if (typeof promises['cutsNetwork'] !== 'boolean') problems.push(`promises.cutsNetwork: expected a boolean, found ${JSON.stringify(promises['cutsNetwork'])}`);
      if (!LIMIT_PROMISES.has(String(promises['limits']))) problems.push(`promises.limits: expected one of ${[...LIMIT_PROMISES].join(', ')}, found ${JSON.stringify(promises['limits'])}`);
    }
  }
  return problems;
}

/**
 * Sandbox backends by name. A backend's code is imported on the first `create` by its name, so a
 * registry of many backends costs nothing until one is used. The process shares one
 * (`registerSandboxBackend`, `createSandbox`); tests may make their own.
 */
export class SandboxBackendRegistry {
  private readonly entries = new Map<string, Entry>();

  /** Adds a backend; returns a function that removes exactly this registration. A taken name is refused. */
  register<Options, Made extends Sandbox>(definition: SandboxBackendDefinition<Options, Made>): () => void {
    if (!isRecord(definition)) throw new SandboxError('invalid_spec', `a sandbox backend definition must be an object {name, description, promises?, load}, found ${definition === null ? 'null' : typeof definition}`);
    assertSandboxBackendName(definition.name);
    const problems = definitionProblems(definition as unknown as Record<string, unknown>);
    if (problems.length > 0) throw new SandboxError('invalid_spec', `sandbox backend "${definition.name}": ${problems.join('; ')}`, { subject: definition.name });
    const taken = this.entries.get(definition.name);
    if (taken !== undefined) {
      throw new SandboxError(
        'invalid_spec',
        `sandbox backend "${definition.name}" is already registered (${taken.definition.description}); a backend needs a name of its own`,
        { subject: definition.name },
      );
    }
    const entry: Entry = { definition: definition as unknown as SandboxBackendDefinition };
    this.entries.set(definition.name, entry);
    return () => {
      if (this.entries.get(definition.name) === entry) this.entries.delete(definition.name);
    };
  }

  /** The registered definition under `name`, if any (without loading it). */
  definition(name: string): SandboxBackendDefinition | undefined {
    return this.entries.get(name)?.definition;
  }

  /** Registered names, in registration order (the built-ins first). */
  names(): string[] {
    return [...this.entries.keys()];
  }

  list(): SandboxBackendInfo[] {
    return [...this.entries.values()].map(({ definition }) => ({ name: definition.name, description: definition.description, promises: definition.promises }));
  }

  /** Throws `invalid_spec` naming the registered backends unless `name` is one of them. */
  assertRegistered(name: string): void {
    this.entry(name);
  }

  /** Loads the backend if needed and makes a sandbox. An unknown name is `invalid_spec`, naming the registered ones. */
  async create(name: string, spec: SandboxSpec, backendOptions: unknown): Promise<Sandbox> {
    const backend = await this.load(this.entry(name));
    const made: unknown = await backend.create(spec, backendOptions);
    if (!isRecord(made) || typeof made['exec'] !== 'function' || typeof made['dispose'] !== 'function') {
      throw new SandboxError('internal', `sandbox backend "${name}": create() must resolve to a Sandbox (with exec, dispose, ...), found ${made === null ? 'null' : typeof made}`, { subject: name });
    }
    return made as unknown as Sandbox;
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (entry === undefined) {
      throw new SandboxError('invalid_spec', `unknown sandbox backend ${JSON.stringify(name)}; expected one of ${this.names().join(', ')}`, { subject: String(name) });
    }
    return entry;
  }

  private load(entry: Entry): Promise<SandboxBackend> {
    const { name } = entry.definition;
    entry.loading ??= (async () => {
      let loaded: unknown;
      try {
        loaded = await entry.definition.load();
      } catch (error) {
        throw new SandboxError('backend_unavailable', `sandbox backend "${name}" failed to load: ${messageOf(error)}`, { subject: name, cause: error });
      }
      if (!isRecord(loaded) || typeof loaded['create'] !== 'function') {
        throw new SandboxError('backend_unavailable', `sandbox backend "${name}": load() must resolve to {create(spec, options)}, found ${loaded === null ? 'null' : typeof loaded}`, { subject: name });
      }
      return loaded as unknown as SandboxBackend;
    })();
    const loading = entry.loading;
    loading.catch(() => {
      if (entry.loading === loading) delete entry.loading;
    });
    return loading;
  }
}
