import { join } from 'node:path';
import { quoteShellWord } from '@agentbench/helpers';
import { DEFAULT_LOG_CAP_BYTES } from './output/command-log.js';
import { SandboxError } from '../contract/sandbox-error.js';
import type { ExecOptions, SandboxSpec } from '../contract/sandbox.js';

/**
 * Seconds a command may run when neither `ExecOptions.timeoutSec` nor `SandboxSpec.defaultTimeoutSec`
 * says otherwise, in every backend. Not a task's `environment.timeout_sec` (see swebench's
 * DEFAULT_IMPORTED_TASK_TIMEOUT_SEC): a task always sets its own.
 */
export const DEFAULT_EXEC_TIMEOUT_SEC = 300;
export const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;
export { DEFAULT_LOG_CAP_BYTES };

/** argv for a command: a string runs through `/bin/sh -c`, an array as is. */
export function commandArgv(command: string | string[]): string[] {
  if (typeof command === 'string') {
    if (command.trim() === '') throw new SandboxError('invalid_spec', 'exec: the command is an empty string');
    return ['/bin/sh', '-c', command];
  }
  if (!Array.isArray(command) || command.length === 0) {
    throw new SandboxError('invalid_spec', 'exec: the command must be a non-empty string or a non-empty array of strings');
  }
  command.forEach((argument, index) => {
    if (typeof argument !== 'string') {
      throw new SandboxError('invalid_spec', `exec: command[${index}] must be a string, found ${typeof argument}`);
    }
    if (argument.includes('\0')) throw new SandboxError('invalid_spec', `exec: command[${index}] contains a NUL byte`);
  });
  return [...command];
}

/** The command as one line, for log headers. */
export function commandText(command: string | string[]): string {
  return typeof command === 'string' ? command : command.map((argument) => quoteShellWord(argument)).join(' ');
}

export function timeoutMs(spec: SandboxSpec, options: ExecOptions | undefined): number {
  const seconds = options?.timeoutSec ?? spec.defaultTimeoutSec ?? DEFAULT_EXEC_TIMEOUT_SEC;
  const field = options?.timeoutSec !== undefined ? 'ExecOptions.timeoutSec' : 'SandboxSpec.defaultTimeoutSec';
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new SandboxError('invalid_spec', `${field}: expected a positive number of seconds, found ${String(seconds)}`);
  }
  return Math.round(seconds * 1000);
}

export function outputCapBytes(spec: SandboxSpec, options: ExecOptions | undefined): number {
  const bytes = options?.outputCapBytes ?? spec.defaultOutputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
  const field = options?.outputCapBytes !== undefined ? 'ExecOptions.outputCapBytes' : 'SandboxSpec.defaultOutputCapBytes';
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0) {
    throw new SandboxError('invalid_spec', `${field}: expected a whole number of bytes ≥ 0, found ${String(bytes)}`);
  }
  return bytes;
}

/** Bytes of stdout and of stderr a command's log keeps: the command's, the spec's, or 10 MiB. */
export function logCapBytes(spec: SandboxSpec, options: ExecOptions | undefined): number {
  const bytes = options?.logCapBytes ?? spec.logCapBytes ?? DEFAULT_LOG_CAP_BYTES;
  const field = options?.logCapBytes !== undefined ? 'ExecOptions.logCapBytes' : 'SandboxSpec.logCapBytes';
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0) {
    throw new SandboxError('invalid_spec', `${field}: expected a whole number of bytes ≥ 0, found ${String(bytes)}`);
  }
  return bytes;
}

/** Checks an env map: names without `=` or NUL, string values. */
export function checkEnvironment(environment: Record<string, string> | undefined, field: string): Record<string, string> {
  if (environment === undefined) return {};
  if (typeof environment !== 'object' || environment === null || Array.isArray(environment)) {
    throw new SandboxError('invalid_spec', `${field}: expected an object of NAME: value strings`);
  }
  for (const [name, value] of Object.entries(environment)) {
    if (name === '' || name.includes('=') || name.includes('\0')) {
      throw new SandboxError('invalid_spec', `${field}: invalid variable name ${JSON.stringify(name)}`);
    }
    if (typeof value !== 'string') {
      throw new SandboxError('invalid_spec', `${field}.${name}: expected a string, found ${typeof value}`);
    }
    if (value.includes('\0')) throw new SandboxError('invalid_spec', `${field}.${name}: the value contains a NUL byte`);
  }
  return environment;
}

/** Log file of one command: `<logDir>/<logName or sandbox id + counter>.log`, name made file-safe. */
export function logFilePath(logDir: string | undefined, logName: string | undefined, sandboxId: string, counter: number): string | undefined {
  if (logDir === undefined) return undefined;
  const name = logName ?? `${sandboxId}-${String(counter).padStart(4, '0')}`;
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return join(logDir, safeName.endsWith('.log') ? safeName : `${safeName}.log`);
}

/** What every backend derives from one exec call's options: its limits, its log and how the log names it. */
export interface ExecSettings {
  timeoutMs: number;
  outputCapBytes: number;
  logPath: string | undefined;
  logCapBytes: number;
  commandText: string;
}

/** The settings of the `counter`th command of the sandbox `sandboxId` (its log is named after both). */
export function execSettings(command: string | string[], spec: SandboxSpec, options: ExecOptions, sandboxId: string, counter: number): ExecSettings {
  return {
    timeoutMs: timeoutMs(spec, options),
    outputCapBytes: outputCapBytes(spec, options),
    logPath: logFilePath(spec.logDir, options.logName, sandboxId, counter),
    logCapBytes: logCapBytes(spec, options),
    commandText: commandText(command),
  };
}

/** Merges the sandbox's and the command's abort signals with the one dispose() fires. */
export function combineSignals(signals: readonly (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
