import { DEFAULT_LOG_CAP_BYTES, type ExecResult, type Sandbox } from '@agentbench/sandbox';
import type { Task } from '@agentbench/schemas';
import { ConfigurationError } from '@agentbench/schemas';
import { relativeToRun } from '../artifacts/attempt-paths.js';
import type { SandboxFactory } from './sandbox-factory.js';

/**
 * Bytes of stdout and of stderr each command's log keeps in an attempt: the caller's setting
 * (`--max-output-bytes`), else the task's `environment.max_output_bytes`, else 10 MiB.
 */
export function maxOutputBytesFor(task: Task, override?: number): number {
  if (override === undefined) return task.environment.max_output_bytes ?? DEFAULT_LOG_CAP_BYTES;
  if (!Number.isInteger(override) || override < 1) {
    throw new ConfigurationError('maxOutputBytes', `expected a whole number of bytes of at least 1, found ${String(override)}`);
  }
  return override;
}

/**
 * The command logs of one attempt that dropped output at the cap (`ExecResult.logTruncated`),
 * relative to the run directory: the record's `truncated_logs`. Sandboxes made through
 * `watch(factory)` note every command they run, whoever runs it (setup, tools, tests).
 */
export class TruncatedLogs {
  private readonly paths = new Set<string>();

  constructor(private readonly runDir: string) {}

  note(result: ExecResult): void {
    if (result.logTruncated === true && result.logPath !== undefined) this.paths.add(relativeToRun(this.runDir, result.logPath));
  }

  /** The same factory; its sandboxes report each command's result here. */
  watch(factory: SandboxFactory): SandboxFactory {
    return async (spec) => this.watchSandbox(await factory(spec));
  }

  list(): string[] {
    return [...this.paths];
  }

  private watchSandbox(sandbox: Sandbox): Sandbox {
    return new Proxy(sandbox, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        const method = (value as (...parameters: unknown[]) => unknown).bind(target);
        if (property !== 'exec') return method;
        return async (...parameters: unknown[]) => {
          const result = (await method(...parameters)) as ExecResult;
          this.note(result);
          return result;
        };
      },
    });
  }
}
