import { AsyncLocalStorage } from 'node:async_hooks';

/** Time a plugin's evaluation may take unless its entry sets `timeout_ms`. Built-in evaluators have none by default. */
export const DEFAULT_PLUGIN_EVALUATION_TIMEOUT_MS = 60_000;

export interface GuardedEvaluationOptions {
  /** Who runs, for messages: `evaluator "word_count" of plugin "x" 1.0.0`. */
  label: string;
  /** Undefined: no time limit. */
  timeoutMs?: number;
  /** Where the timeout was set, for its message (`timeout_ms`, or the default). */
  timeoutSource?: string;
  /** The run's signal; the evaluation's own signal is also aborted at the timeout. */
  signal?: AbortSignal;
}

/** `value`: the evaluation settled; `thrown`: it rejected; `problem`: the guard stopped it (timeout, exit). */
export type GuardedEvaluationOutcome<Value> =
  | { kind: 'value'; value: Value }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'problem'; message: string };

interface GuardState {
  label: string;
  isSettled: boolean;
  onExit: (code: unknown) => void;
}

const guarded = new AsyncLocalStorage<GuardState>();
const labelsRunning = new Map<symbol, string>();
let realExit: typeof process.exit | undefined;
/** Plugins that called `process.exit` after their evaluation had settled (from a timer, say). */
const lateExits: string[] = [];

// `process.exit` once an evaluation has run: a call made from inside an evaluation (its async context,
// timers and callbacks included, also after it settled) is blocked; any other call (a signal handler,
// the host application) exits as usual. Installed on the first evaluation and kept: a plugin's timer
// can outlive its evaluation.
function exitFromEvaluation(code?: unknown): never {
  const state = guarded.getStore();
  if (state === undefined) return (realExit as typeof process.exit).call(process, code as number | undefined);
  if (!state.isSettled) {
    state.onExit(code);
  } else {
    lateExits.push(state.label);
    process.stderr.write(`ab: ${state.label} called process.exit(${describeCode(code)}) after its evaluation finished; blocked, and this process will not exit 0\n`);
  }
  return undefined as never;
}

// At exit: a plugin that kept its own reference to the real `process.exit` (taken at import) got past
// the block while its evaluation ran, or one was blocked late: the process does not end as a success.
function exitBackstop(): void {
  if (labelsRunning.size === 0 && lateExits.length === 0) return;
  const who = labelsRunning.size > 0 ? `the process is exiting while ${[...labelsRunning.values()].join(', ')} runs` : `${lateExits.join(', ')} called process.exit after evaluating`;
  process.stderr.write(`ab: ${who}; the run is not a pass\n`);
  if (process.exitCode === undefined || process.exitCode === 0 || process.exitCode === '0') process.exitCode = 1;
}

function installExitGuard(): void {
  if (realExit !== undefined) return;
  realExit = process.exit;
  process.exit = exitFromEvaluation as typeof process.exit;
  process.on('exit', exitBackstop);
}

function describeCode(code: unknown): string {
  return code === undefined ? '' : typeof code === 'number' || typeof code === 'string' ? String(code).slice(0, 20) : typeof code;
}

/**
 * Runs one evaluation so that it cannot hang or end the run: past `timeoutMs` it settles as an error
 * (the evaluation's signal is aborted, its promise left behind), and `process.exit` called from inside
 * it is blocked and settles it as an error. The timer keeps the process alive, so a promise that never
 * settles cannot end the run silently either.
 */
export async function runGuardedEvaluation<Value>(
  work: (signal: AbortSignal) => Promise<Value>,
  options: GuardedEvaluationOptions,
): Promise<GuardedEvaluationOutcome<Value>> {
  const controller = new AbortController();
  const signal = options.signal === undefined ? controller.signal : AbortSignal.any([options.signal, controller.signal]);
  installExitGuard();
  const id = Symbol(options.label);
  labelsRunning.set(id, options.label);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<GuardedEvaluationOutcome<Value>>((resolve) => {
      const state: GuardState = {
        label: options.label,
        isSettled: false,
        onExit: (code) => settle({ kind: 'problem', message: `${options.label} called process.exit(${describeCode(code)}) during evaluation; the exit was blocked and the evaluation is an error` }),
      };
      const settle = (outcome: GuardedEvaluationOutcome<Value>): void => {
        if (state.isSettled) return;
        state.isSettled = true;
        resolve(outcome);
      };
      if (options.timeoutMs !== undefined) {
        const timeoutMs = options.timeoutMs;
        timer = setTimeout(() => {
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
          settle({ kind: 'problem', message: `${options.label} did not finish within ${timeoutMs} ms (${options.timeoutSource ?? 'timeout_ms'}); it was abandoned` });
        }, timeoutMs);
      }
      guarded.run(state, () => {
        let promise: Promise<Value>;
        try {
          promise = Promise.resolve(work(signal));
        } catch (error) {
          promise = Promise.reject(error);
        }
        promise.then(
          (value) => settle({ kind: 'value', value }),
          (error: unknown) => settle({ kind: 'thrown', error }),
        );
      });
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    labelsRunning.delete(id);
  }
}
