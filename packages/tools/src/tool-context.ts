import { posix } from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import type { ToolName } from '@agentbench/schemas';
import { ToolsError } from './errors/tools-error.js';

/** Size limits of what the tools return. Every one can be changed per tool set. */
export interface ToolLimits {
  /** list_files: most paths returned (the original contract's 1000). */
  listFilesMaxEntries: number;
  /** read_file: a file (or asked range) longer than this keeps its first and last half, with a marker between. */
  readFileMaxLines: number;
  /** read_file: the same cut by size, for files of few very long lines. */
  readFileMaxBytes: number;
  /** read_file of a folder: most entries listed. */
  directoryMaxEntries: number;
  /** read_file of a missing path: most near names suggested. */
  suggestionCount: number;
  /** search: upper bound of `max_results`. */
  searchMaxResults: number;
  /** search: upper bound of `context_lines`. */
  searchMaxContextLines: number;
  /** search: a matched or context line longer than this is cut (minified files). */
  searchMaxLineLength: number;
  /** run: stdout and stderr returned keep this many bytes each (head and tail halves); the sandbox's command log keeps more (its `logCapBytes`). */
  runOutputMaxBytes: number;
  /** run: the same cut by lines. */
  runOutputMaxLines: number;
  /** run: upper bound of `timeout_sec`. */
  runMaxTimeoutSec: number;
  /** apply_patch: largest patch text accepted, in bytes. */
  patchMaxBytes: number;
}

export const DEFAULT_TOOL_LIMITS: Readonly<ToolLimits> = Object.freeze({
  listFilesMaxEntries: 1000,
  readFileMaxLines: 2000,
  readFileMaxBytes: 200_000,
  directoryMaxEntries: 1000,
  suggestionCount: 5,
  searchMaxResults: 500,
  searchMaxContextLines: 10,
  searchMaxLineLength: 500,
  runOutputMaxBytes: 32_000,
  runOutputMaxLines: 400,
  runMaxTimeoutSec: 3600,
  patchMaxBytes: 2_000_000,
});

/** Per-tool time limits in seconds (the spec's; apply_patch's is ours). `run` uses its `timeout_sec` or `defaultRunTimeoutSec`. */
export type ToolTimeouts = Record<Exclude<ToolName, 'run'>, number>;

export const DEFAULT_TOOL_TIMEOUTS_SEC: Readonly<ToolTimeouts> = Object.freeze({
  list_files: 30,
  read_file: 10,
  search: 60,
  apply_patch: 30,
});

/** Default of `run`'s timeout when the call gives none and the context sets none (the sandbox's own default). */
export const DEFAULT_RUN_TIMEOUT_SEC = 300;

export interface ToolLogger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export interface ToolContext {
  sandbox: Sandbox;
  /** The repository folder inside the sandbox that every tool path is relative to. Default `sandbox.workdir`. */
  root?: string;
  /** Host folder receiving `diffs/step_NNNN.patch` and `logs/tool_step_NNNN_*.txt`. Without it nothing is written. */
  artifactsDir?: string;
  /** Reject every non-standard patch instead of repairing it. Default: `AGENTBENCH_STRICT_PATCH=1`. */
  isStrictPatch?: boolean;
  /** Return run output untruncated (up to 64 MiB a stream). Default: `AGENTBENCH_FULL_LOGS=1`. */
  isFullOutput?: boolean;
  /** Whether `run` may ask for `network: true`. Default false: such a call gets `invalid_arguments`. */
  allowNetwork?: boolean;
  /** The network state the sandbox returns to after a `network: true` command. Default false. */
  hasNetworkByDefault?: boolean;
  /** `run`'s timeout when the call gives no `timeout_sec` (the task's `environment.timeout_sec`). */
  defaultRunTimeoutSec?: number;
  /** Environment added to every `run` command (the call's `env` wins). */
  runEnvironment?: Record<string, string>;
  limits?: Partial<ToolLimits>;
  timeoutsSec?: Partial<ToolTimeouts>;
  logger?: ToolLogger;
}

/** A ToolContext with every default filled in and checked. */
export interface ResolvedToolContext {
  sandbox: Sandbox;
  root: string;
  artifactsDir: string | undefined;
  isStrictPatch: boolean;
  isFullOutput: boolean;
  allowNetwork: boolean;
  hasNetworkByDefault: boolean;
  defaultRunTimeoutSec: number;
  runEnvironment: Record<string, string>;
  limits: ToolLimits;
  timeoutsSec: ToolTimeouts;
  logger: ToolLogger | undefined;
}

const truthy = new Set(['1', 'true', 'yes', 'on']);

function isEnabled(name: string): boolean {
  return truthy.has((process.env[name] ?? '').trim().toLowerCase());
}

export function resolveToolContext(context: ToolContext): ResolvedToolContext {
  if (typeof context !== 'object' || context === null) throw new ToolsError('createToolSet: expected a ToolContext object');
  const sandbox = context.sandbox;
  if (typeof sandbox !== 'object' || sandbox === null || typeof sandbox.exec !== 'function' || typeof sandbox.readFile !== 'function') {
    throw new ToolsError('ToolContext.sandbox: expected a Sandbox (with exec, readFile, writeFile, listFiles)');
  }
  const root = context.root ?? sandbox.workdir;
  if (typeof root !== 'string' || !posix.isAbsolute(root)) {
    throw new ToolsError(`ToolContext.root: expected an absolute path inside the sandbox, found ${JSON.stringify(root)}`);
  }
  const limits: ToolLimits = { ...DEFAULT_TOOL_LIMITS };
  for (const [name, value] of Object.entries(context.limits ?? {})) {
    if (!(name in DEFAULT_TOOL_LIMITS)) {
      throw new ToolsError(`ToolContext.limits.${name}: unknown limit; expected one of ${Object.keys(DEFAULT_TOOL_LIMITS).join(', ')}`);
    }
    if (value === undefined) continue;
    limits[name as keyof ToolLimits] = positiveInteger(value, `ToolContext.limits.${name}`);
  }
  const timeoutsSec: ToolTimeouts = { ...DEFAULT_TOOL_TIMEOUTS_SEC };
  for (const [name, value] of Object.entries(context.timeoutsSec ?? {})) {
    if (!(name in DEFAULT_TOOL_TIMEOUTS_SEC)) {
      throw new ToolsError(`ToolContext.timeoutsSec.${name}: unknown tool; expected one of ${Object.keys(DEFAULT_TOOL_TIMEOUTS_SEC).join(', ')}`);
    }
    if (value === undefined) continue;
    timeoutsSec[name as keyof ToolTimeouts] = positiveNumber(value, `ToolContext.timeoutsSec.${name}`);
  }
  const runEnvironment = context.runEnvironment ?? {};
  for (const [name, value] of Object.entries(runEnvironment)) {
    if (typeof value !== 'string') throw new ToolsError(`ToolContext.runEnvironment.${name}: expected a string, found ${typeof value}`);
  }
  return {
    sandbox,
    root: posix.resolve(root),
    artifactsDir: context.artifactsDir,
    isStrictPatch: context.isStrictPatch ?? isEnabled('AGENTBENCH_STRICT_PATCH'),
    isFullOutput: context.isFullOutput ?? isEnabled('AGENTBENCH_FULL_LOGS'),
    allowNetwork: context.allowNetwork ?? false,
    hasNetworkByDefault: context.hasNetworkByDefault ?? false,
    defaultRunTimeoutSec:
      context.defaultRunTimeoutSec === undefined ? DEFAULT_RUN_TIMEOUT_SEC : positiveNumber(context.defaultRunTimeoutSec, 'ToolContext.defaultRunTimeoutSec'),
    runEnvironment,
    limits,
    timeoutsSec,
    logger: context.logger,
  };
}

function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ToolsError(`${field}: expected a whole number ≥ 1, found ${JSON.stringify(value)}`);
  }
  return value;
}

function positiveNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ToolsError(`${field}: expected a positive number of seconds, found ${JSON.stringify(value)}`);
  }
  return value;
}
