import path from 'node:path';
import type { ExecResult } from '@agentbench/sandbox';
import * as v from 'valibot';
import { stepLabel } from './artifacts.js';
import { ToolFailure } from './errors/tool-failure.js';
import { optionalBoolean, optionalInteger, parameterJsonSchemas, requiredString } from './parameters.js';
import { toToolFailure } from './sandbox-failure.js';
import { HeadTailCapture, type CapturedOutput } from './text/head-tail-capture.js';
import { DEFAULT_TOOL_LIMITS } from './tool-context.js';
import type { ToolImplementation, ToolOutput } from './tool-implementation.js';

const environmentNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EnvironmentSchema = v.nullish(
  v.record(
    v.pipe(v.string(), v.regex(environmentNamePattern, 'expected variable names of letters, digits and "_", not starting with a digit')),
    v.pipe(
      v.union([v.string(), v.number(), v.boolean()], 'expected string values'),
      v.transform((value) => String(value)),
      v.check((value) => !value.includes('\0'), 'expected values without NUL bytes'),
    ),
    'expected an object of NAME: "value" pairs',
  ),
);
parameterJsonSchemas.set(EnvironmentSchema, {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Extra environment variables for the command, e.g. {"PYTHONPATH": "src"}.',
});

export const RunParametersSchema = v.object({
  command: requiredString({ description: 'Shell command, run with /bin/sh -c in the repository root, e.g. "python -m pytest -q tests/test_calc.py".' }),
  timeout_sec: optionalInteger({
    description: 'Seconds before the command is killed (exit code 124). Default: the task\'s timeout.',
    minimum: 1,
    maximum: DEFAULT_TOOL_LIMITS.runMaxTimeoutSec,
  }),
  env: EnvironmentSchema,
  network: optionalBoolean({ description: 'Give this command network access. Default false; refused unless the run allows it.', defaultValue: false }),
});
export type RunParameters = v.InferOutput<typeof RunParametersSchema>;

/** What the capture keeps with AGENTBENCH_FULL_LOGS (a generous bound for memory). */
const fullOutputCaptureCharacters = 64 * 1024 * 1024;

export const runTool: ToolImplementation<RunParameters> = {
  name: 'run',
  description:
    'Run a shell command in the sandbox, in the repository root, without network by default. Returns the exit code and stdout/stderr ' +
    '(long output keeps its start and end). A command past its timeout is killed with exit code 124.',
  parameters: RunParametersSchema,
  timeoutSec: (context, params) => Math.min(params.timeout_sec ?? context.defaultRunTimeoutSec, context.limits.runMaxTimeoutSec),
  async run({ params, context, step, signal, timeoutSec }) {
    const wantsNetwork = params.network === true;
    if (wantsNetwork && !context.allowNetwork) {
      throw new ToolFailure('invalid_arguments', 'network: true is not allowed in this run; commands run without network access', { network: true });
    }
    const maxCharacters = context.isFullOutput ? fullOutputCaptureCharacters : context.limits.runOutputMaxBytes;
    const stdout = new HeadTailCapture(maxCharacters, context.isFullOutput);
    const stderr = new HeadTailCapture(maxCharacters, context.isFullOutput);
    let result: ExecResult | undefined;
    let failure: unknown;
    try {
      if (wantsNetwork) await context.sandbox.setNetwork(true);
      try {
        result = await context.sandbox.exec(params.command, {
          cwd: context.root,
          env: { ...context.runEnvironment, ...(params.env ?? {}) },
          timeoutSec,
          // The captures above keep what is returned; the result's own copy is not needed.
          outputCapBytes: 0,
          // The sandbox's command log (when it has a logDir) is the one place the output is kept.
          logName: `tool_step_${stepLabel(step)}_run`,
          onStdout: (chunk: string) => stdout.push(chunk),
          onStderr: (chunk: string) => stderr.push(chunk),
          signal,
        });
      } finally {
        if (wantsNetwork) await context.sandbox.setNetwork(context.hasNetworkByDefault);
      }
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined || result === undefined) throw toToolFailure(failure);
    const logPath = result.logPath === undefined ? undefined : artifactPath(context.artifactsDir, result.logPath);
    const logHint = logPath === undefined ? 'the middle was left out' : `more in ${logPath}`;
    const stdoutText = stdout.result(context.limits.runOutputMaxLines, logHint);
    const stderrText = stderr.result(context.limits.runOutputMaxLines, logHint);
    const isTimeout = result.timedOut || result.killedBy === 'timeout';
    const data: Record<string, unknown> = {
      command: params.command,
      exit_code: result.exitCode,
      timed_out: isTimeout,
      killed_by: result.killedBy ?? null,
      duration_sec: result.durationMs / 1000,
      stdout: stdoutText.text,
      stderr: stderrText.text,
      // One log holds both streams (stdout, then stderr); it kept at most the sandbox's logCapBytes of each.
      log_path: logPath ?? null,
      log_truncated: result.logTruncated === true,
      stdout_path: logPath ?? null,
      stderr_path: logPath ?? null,
      ...outputFields('stdout', stdoutText),
      ...outputFields('stderr', stderrText),
    };
    const output: ToolOutput = { data, exitCode: result.exitCode };
    if (logPath !== undefined) {
      output.stdoutPath = logPath;
      output.stderrPath = logPath;
    }
    if (isTimeout) {
      output.error = {
        kind: 'timeout',
        message: `the command ran past its ${timeoutSec} s timeout and was killed (exit code ${result.exitCode})`,
        details: { timeout_sec: timeoutSec, exit_code: result.exitCode },
      };
    }
    return output;
  },
};

function outputFields(stream: 'stdout' | 'stderr', captured: CapturedOutput): Record<string, unknown> {
  return {
    [`${stream}_bytes`]: captured.bytes,
    [`${stream}_lines`]: captured.lines,
    [`${stream}_truncated`]: captured.isTruncated,
    [`${stream}_kept_head_lines`]: captured.keptHeadLines ?? null,
    [`${stream}_kept_tail_lines`]: captured.keptTailLines ?? null,
  };
}

/** A host path as results give it: relative to the artifacts folder when inside it (as every artifact path), else as is. */
function artifactPath(artifactsDir: string | undefined, hostPath: string): string {
  if (artifactsDir === undefined) return hostPath;
  const relative = path.relative(artifactsDir, hostPath);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? hostPath : relative.split(path.sep).join('/');
}
