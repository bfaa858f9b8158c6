import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createScriptedAgent } from './scripted-agent.js';
import { AgentLoadError } from '../errors/agent-load-error.js';
import { AgentLoopError } from '../errors/agent-loop-error.js';
import { createLlmAgent } from '../llm/llm-agent.js';
import type { Agent, AgentFactory, AgentFactoryOptions } from '../contract/agent.js';
import { ConfigurationError } from '@agentbench/schemas';
import { resolvePackageEntry } from '@agentbench/helpers';

/** Built-in variants; `llm_v0` is the original project's name for `llm`. */
export const BUILT_IN_VARIANTS = ['scripted', 'llm', 'llm_v0'] as const;

export interface LoadAgentOptions extends AgentFactoryOptions {
  /** Folder relative variant paths and package names resolve from. Default `process.cwd()`. */
  baseDir?: string;
}

export interface LoadedAgent {
  agent: Agent;
  /** The variant name recorded in the AttemptRecord: `scripted`, `llm`, or the path / package as given. */
  variant: string;
  /** Where a custom agent was loaded from (absolute file), when it was one. */
  source?: string;
}

function isPathLike(variant: string): boolean {
  return variant.startsWith('.') || variant.startsWith('/') || /\.(m?js|cjs)$/.test(variant);
}

function isAgent(value: unknown): value is Agent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { nextAction?: unknown }).nextAction === 'function'
  );
}

/**
 * The file a custom variant (a .js/.mjs path or a package name) loads from, absolute; an
 * AgentLoadError when there is none. Nothing of the agent runs: `ab run` checks every task's agent
 * with it before a run starts.
 */
export async function resolveAgentSource(variant: string, baseDir: string | undefined): Promise<string> {
  const base = path.resolve(baseDir ?? process.cwd());
  if (isPathLike(variant)) {
    const source = path.resolve(base, variant);
    let isFile = false;
    try {
      isFile = (await stat(source)).isFile();
    } catch {
      throw new AgentLoadError(variant, `file ${source} not found (resolved against ${base}); expected scripted, llm, a .js/.mjs file or a package name`);
    }
    if (!isFile) throw new AgentLoadError(variant, `${source} is not a file`);
    return source;
  }
  const entry = await resolvePackageEntry(variant, base);
  if (entry === undefined) {
    throw new AgentLoadError(
      variant,
      `unknown variant: not a built-in (${BUILT_IN_VARIANTS.join(', ')}) and no package of that name is installed from ${base}; a file path must start with ./ or /`,
    );
  }
  return entry;
}

/**
 * Resolves `--variant` to an agent: `scripted`, `llm` (alias `llm_v0`), a path to a `.js`/`.mjs`
 * file, or an installed package name. A module's default export must be a factory
 * `(options) => Agent` (or a promise of one); an exported agent object is accepted too.
 * Every failure is an AgentLoadError naming the variant and what was expected.
 */
export async function loadAgent(variant: string, options: LoadAgentOptions = {}): Promise<LoadedAgent> {
  if (typeof variant !== 'string' || variant.trim() === '') {
    throw new AgentLoadError(String(variant), `expected scripted, llm, a path to a .js/.mjs file, or a package name`);
  }
  const { baseDir, ...factoryOptions } = options;
  if (variant === 'scripted') return { agent: await createScriptedAgent(factoryOptions), variant };
  if (variant === 'llm' || variant === 'llm_v0') return { agent: createLlmAgent(factoryOptions), variant: 'llm' };

  const source = await resolveAgentSource(variant, baseDir);
  const specifier = pathToFileURL(source).href;

  let module: Record<string, unknown>;
  try {
    module = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    throw new AgentLoadError(variant, `cannot import ${source}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const exported = module['default'] ?? module['createAgent'];
  let agent: unknown;
  if (typeof exported === 'function') {
    try {
      agent = await (exported as AgentFactory)(factoryOptions);
    } catch (error) {
      // The loop's own errors (a missing API key) already name what to fix: passed on, not wrapped.
      if (AgentLoopError.isInstance(error) || ConfigurationError.isInstance(error)) throw error;
      throw new AgentLoadError(variant, `its factory threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!isAgent(agent)) {
      throw new AgentLoadError(variant, `its factory returned ${describe(agent)}; expected an agent { name: string, nextAction(observation, signal) }`);
    }
  } else if (isAgent(exported)) {
    agent = exported;
  } else {
    const names = Object.keys(module);
    throw new AgentLoadError(
      variant,
      `${source} has no usable export: expected a default export (options) => Agent, found ${exported === undefined ? `exports ${names.length > 0 ? names.join(', ') : '(none)'}` : describe(exported)}`,
    );
  }
  return { agent: agent as Agent, variant, source };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value as object).join(', ') || '(none)'}`;
  return `a ${typeof value}`;
}
