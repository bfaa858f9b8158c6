import type { JsonSchema } from '@agentbench/tools';
import type { ServiceCall } from '../mocks/mock-matching.js';

/** One method of a service. */
export interface ServiceMethodDefinition {
  /** Shown to the agent (function calling) and in the catalog. */
  description?: string;
  /**
   * JSON Schema of the named arguments (`type: object`). The order of `properties` is the order of the
   * positional arguments, so a call can be written either way and mocks can match `args` or `input`.
   */
  parameters?: JsonSchema;
  /**
   * The real implementation. A method without one exists only to be mocked: an unmocked call fails
   * with a message saying so.
   */
  handler?: (call: ServiceCall, signal?: AbortSignal) => unknown;
}

/** A named service the agent under test can call (`database`, `tools`, a plugin's `github`). */
export interface ServiceDefinition {
  name: string;
  description?: string;
  methods: Record<string, ServiceMethodDefinition>;
  /** Releases what the service holds (a database, a connection) at the end of the run. */
  dispose?: () => void | Promise<void>;
}

/** The positional parameter names of a method: the keys of its `parameters.properties`, in order. */
export function parameterNames(method: ServiceMethodDefinition): string[] {
  const properties = method.parameters?.['properties'];
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}
