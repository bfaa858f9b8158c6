import type { SandboxSpec } from '../contract/sandbox.js';

/**
 * Spec fields a warm sandbox takes at hand-out. Everything else (image, workdir, limits,
 * network at start, and any field added later, such as a runtime) is fixed when the container
 * starts, so it is part of the pool key: a sandbox is only handed out for a spec that matches it.
 */
export const HAND_OUT_FIELDS = ['env', 'files', 'hostWorkspace', 'mountWorkspace', 'labels', 'logDir', 'defaultTimeoutSec', 'defaultOutputCapBytes', 'logCapBytes'] as const;

/** The part of a spec a warm sandbox is started with, and its key. */
export interface PoolKey {
  /** Stable text of `warmSpec` (sorted keys): equal specs, equal ids. */
  id: string;
  /** The spec without its hand-out fields. */
  warmSpec: SandboxSpec;
  /** What the backend adds to the key (e.g. that the workspace is mounted). */
  extra: Record<string, unknown>;
}

/** The key of `spec`: its fields minus the hand-out ones; `extra` (e.g. the mounted folder's owner) joins the id. */
export function poolKeyOf(spec: SandboxSpec, extra: Record<string, unknown> = {}): PoolKey {
  const warmSpec: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(spec)) {
    if (value !== undefined && !(HAND_OUT_FIELDS as readonly string[]).includes(field)) warmSpec[field] = value;
  }
  return { id: stableText({ ...warmSpec, ...prefixed(extra) }), warmSpec: warmSpec as SandboxSpec, extra };
}

function prefixed(extra: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extra).map(([name, value]) => [`+${name}`, value]));
}

function stableText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => left.localeCompare(right));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${stableText(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
