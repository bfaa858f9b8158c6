import type { ToolName, ToolRequest, ToolResult } from '@agentbench/schemas';
import * as v from 'valibot';
import { ToolFailure } from './errors/tool-failure.js';
import { ToolsError } from './errors/tools-error.js';
import { describeIssues } from './parameters.js';
import { toToolFailure } from './sandbox-failure.js';
import { resolveToolContext, type ResolvedToolContext, type ToolContext } from './tool-context.js';
import { TOOL_IMPLEMENTATIONS, toolDefinitions, type FunctionToolDefinition } from './tool-definitions.js';
import type { ToolImplementation, ToolOutput } from './tool-implementation.js';

export interface ExecuteOptions {
  /** Step number naming this call's artifacts. Default: the tool set's own counter (1, 2, …). */
  step?: number;
  /** Aborting stops the call (a running command is killed). */
  signal?: AbortSignal;
}

/** A request as the tool set accepts it: `requested_at` is not needed to run it. */
export type ToolSetRequest = Pick<ToolRequest, 'tool' | 'params' | 'request_id'> & Partial<Pick<ToolRequest, 'requested_at'>>;

export interface ToolSet {
  readonly context: ResolvedToolContext;
  /**
   * Runs one tool call and returns its ToolResult. Never throws for a bad call (invalid
   * params, missing file, failing patch, sandbox trouble): those are error results.
   * Throws a ToolsError only for a request naming no known tool.
   */
  execute(request: ToolSetRequest, options?: ExecuteOptions): Promise<ToolResult>;
  /** Function-calling definitions of the five tools. */
  definitions(): FunctionToolDefinition[];
}

/**
 * Extra time past a tool's limit before the call is abandoned: commands get the chance to report
 * their own timeout, with its exit code and output. Killing a process tree on a loaded two-core
 * machine took over 2 s, and over 10 s at a load of 24 (the tree walk reads all of /proc twice or more);
 * the abandon is only the last resort for a tool that never returns, so it can wait.
 */
const abandonGraceMs = 30_000;

/** Creates the five tools over one sandbox. */
export function createToolSet(context: ToolContext): ToolSet {
  const resolved = resolveToolContext(context);
  let stepCounter = 0;
  return {
    context: resolved,
    definitions: () => toolDefinitions(),
    async execute(request, options = {}) {
      const tool = TOOL_IMPLEMENTATIONS[request?.tool as ToolName] as ToolImplementation<unknown> | undefined;
      if (tool === undefined || !Object.hasOwn(TOOL_IMPLEMENTATIONS, request.tool)) {
        throw new ToolsError(`unknown tool ${JSON.stringify(request?.tool)}; expected one of ${Object.keys(TOOL_IMPLEMENTATIONS).join(', ')}`);
      }
      stepCounter += 1;
      const step = options.step ?? stepCounter;
      const startedAt = new Date();
      const started = performance.now();
      const output = await runTool(tool, resolved, request, step, options.signal);
      const endedAt = new Date();
      const result: ToolResult = {
        request_id: request.request_id,
        tool: tool.name,
        status: output.error === undefined ? 'success' : 'error',
        started_at: startedAt.toISOString(),
        ended_at: endedAt.toISOString(),
        duration_sec: Math.max(0, (performance.now() - started) / 1000),
        data: output.data ?? null,
        error: output.error === undefined ? null : { kind: output.error.kind, message: output.error.message, details: output.error.details ?? null },
        exit_code: output.exitCode ?? null,
        stdout_path: output.stdoutPath ?? null,
        stderr_path: output.stderrPath ?? null,
      };
      resolved.logger?.debug?.(`tool ${tool.name} ${result.status}`, { request_id: request.request_id, step, duration_sec: result.duration_sec, error: result.error?.kind });
      return result;
    },
  };
}

async function runTool(
  tool: ToolImplementation<unknown>,
  context: ResolvedToolContext,
  request: ToolSetRequest,
  step: number,
  outerSignal: AbortSignal | undefined,
): Promise<ToolOutput> {
  const parsed = v.safeParse(tool.parameters, request.params ?? {});
  if (!parsed.success) {
    const problems = describeIssues(parsed.issues);
    return {
      error: {
        kind: 'invalid_arguments',
        message: `${tool.name}: invalid parameters: ${problems.join('; ')}`,
        details: { problems, params: request.params ?? null },
      },
    };
  }
  const params = parsed.output;
  const timeoutSec = tool.timeoutSec(context, params);
  const controller = new AbortController();
  const signal = outerSignal === undefined ? controller.signal : AbortSignal.any([controller.signal, outerSignal]);
  let timer: NodeJS.Timeout | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ToolFailure('timeout', `${tool.name} ran past its ${timeoutSec} s limit`, { timeout_sec: timeoutSec }));
    }, timeoutSec * 1000 + abandonGraceMs);
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (outerSignal === undefined) return;
    onAbort = (): void => reject(new ToolFailure('internal', `${tool.name} was aborted by the caller`, { aborted: true }));
    if (outerSignal.aborted) onAbort();
    else outerSignal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([tool.run({ params, context, step, signal, timeoutSec }), abandoned, aborted]);
  } catch (error) {
    const failure = toToolFailure(error);
    if (failure.kind === 'internal') context.logger?.warn?.(`tool ${tool.name} failed unexpectedly`, { error: failure.message });
    const details = failure.details === undefined || Object.keys(failure.details).length === 0 ? undefined : failure.details;
    return { error: details === undefined ? { kind: failure.kind, message: failure.message } : { kind: failure.kind, message: failure.message, details } };
  } finally {
    clearTimeout(timer);
    // A long-lived caller signal must not collect one listener per call.
    if (onAbort !== undefined) outerSignal?.removeEventListener('abort', onAbort);
  }
}
