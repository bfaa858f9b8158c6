import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';

/** What a matcher or response function sees: frozen deep copies of the call. */
export interface ScriptScope {
  args: readonly unknown[];
  input: Readonly<Record<string, unknown>>;
  context: Readonly<Record<string, unknown>>;
}

export type ScriptKind = 'matcher' | 'responseFn';

export interface IsolatedScriptRunnerOptions {
  /** CPU time one script may take. Default 1000 ms. */
  timeoutMs?: number;
  /** Heap limit of the worker that runs scripts. Default 64 MiB. */
  memoryLimitMb?: number;
}

export interface ScriptRequest {
  kind: ScriptKind;
  source: string;
  scope: ScriptScope;
  /** Seeds `Math.random` inside the script, so `--seed` replays it too. */
  seed: number;
  /** Where the script comes from, for messages: `setup.mocks[2].when.matcher`. */
  label: string;
}

interface WorkerReply {
  id: number;
  isOk: boolean;
  /** JSON text of the value (undefined becomes null). */
  json?: string;
  errorKind?: 'timeout' | 'error';
  message?: string;
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** The watchdog; unset until the worker is online, so a slow worker start is not taken for a stuck script. */
  timer: NodeJS.Timeout | undefined;
  label: string;
}

/** Expression form first (`args[0] === 1`, `() => ({...})`), else a function body (`return {...}`). */
export function wrapScript(kind: ScriptKind, source: string): { code: string; form: 'expression' | 'body' } {
  if (kind === 'matcher') return { code: `(function () { 'use strict'; return Boolean((${source}\n)); })()`, form: 'expression' };
  const expression = `(function () { 'use strict'; const __value = (${source}\n); return typeof __value === 'function' ? __value(args, input, context) : __value; })()`;
  try {
    new vm.Script(expression);
    return { code: expression, form: 'expression' };
  } catch {
    return { code: `(function (args, input, context) { 'use strict';\n${source}\n})(args, input, context)`, form: 'body' };
  }
}

/** A syntax error of a matcher or response function, found without running it (compiling runs nothing). */
export function scriptSyntaxProblem(kind: ScriptKind, source: string): string | undefined {
  try {
    new vm.Script(wrapScript(kind, source).code);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Runs inside the worker. Each script gets a fresh vm context with no require, process or timers,
// code generation from strings off, inputs parsed and frozen inside the context, a seeded Math.random
// and a CPU time limit. The worker itself has a heap limit and is terminated on a stuck script.
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const scripts = new Map();
const prelude = new vm.Script(\`(function (scopeJson, seed) {
  'use strict';
  const freeze = (value) => {
    if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
      Object.freeze(value);
      for (const key of Object.keys(value)) freeze(value[key]);
    }
    return value;
  };
  const scope = JSON.parse(scopeJson);
  globalThis.args = freeze(scope.args);
  globalThis.input = freeze(scope.input);
  globalThis.context = freeze(scope.context);
  let state = seed >>> 0;
  Math.random = function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
})\`);
parentPort.on('message', (message) => {
  const { id, code, label, scopeJson, seed, timeoutMs } = message;
  try {
    const sandbox = vm.createContext(Object.create(null), {
      name: label,
      codeGeneration: { strings: false, wasm: false },
      microtaskMode: 'afterEvaluate',
    });
    prelude.runInContext(sandbox)(scopeJson, seed);
    let script = scripts.get(code);
    if (script === undefined) {
      script = new vm.Script(code, { filename: label });
      if (scripts.size > 500) scripts.clear();
      scripts.set(code, script);
    }
    const value = script.runInContext(sandbox, { timeout: timeoutMs, breakOnSigint: false });
    if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
      throw new Error('returned a Promise: response functions and matchers must be synchronous');
    }
    const json = JSON.stringify(value === undefined ? null : value);
    parentPort.postMessage({ id, isOk: true, json });
  } catch (error) {
    const isTimeout = error !== null && typeof error === 'object' && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    const text = error !== null && typeof error === 'object' && 'message' in error ? String(error.name || 'Error') + ': ' + String(error.message) : String(error);
    parentPort.postMessage({ id, isOk: false, errorKind: isTimeout ? 'timeout' : 'error', message: text });
  }
});
`;

/**
 * Runs mock matchers and response functions away from our process: in a worker thread with a heap
 * limit, each in a fresh `vm` context with a CPU time limit. A script that does not answer in time
 * (even past the vm limit, e.g. stuck in a native call) gets the worker terminated and restarted.
 */
export class IsolatedScriptRunner {
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
  private worker: Worker | undefined;
  private isWorkerOnline = false;
  private readonly pending = new Map<number, PendingCall>();
  private nextId = 0;
  private isClosed = false;

  constructor(options: IsolatedScriptRunnerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.memoryLimitMb = options.memoryLimitMb ?? 64;
    if (!(this.timeoutMs > 0)) throw new ScenarioRunnerError('configuration', `script timeoutMs: expected a positive number, found ${this.timeoutMs}`);
  }

  /** Runs a script and returns its JSON value (a matcher's: a boolean). */
  run(request: ScriptRequest): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new ScenarioRunnerError('internal', 'the script runner was closed'));
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const { code } = wrapScript(request.kind, request.source);
    let scopeJson: string;
    try {
      scopeJson = JSON.stringify(request.scope);
    } catch (error) {
      return Promise.reject(new ScenarioRunnerError('mock_script', `${request.label}: the call's arguments cannot be passed to the script: ${(error as Error).message}`));
    }
    return new Promise((resolve, reject) => {
      const call: PendingCall = { resolve, reject, timer: undefined, label: request.label };
      this.pending.set(id, call);
      if (this.isWorkerOnline) this.startWatchdog(id, call);
      worker.postMessage({ id, code, label: request.label, scopeJson, seed: request.seed >>> 0, timeoutMs: this.timeoutMs });
    });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.rejectAll(() => new ScenarioRunnerError('internal', 'the script runner was closed'));
    if (worker !== undefined) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: this.memoryLimitMb, maxYoungGenerationSizeMb: 16, codeRangeSizeMb: 16 },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    this.isWorkerOnline = false;
    // Starting a worker takes tens of milliseconds, and seconds on a loaded machine: the watchdogs of
    // calls made meanwhile start only once it runs, so the time limit measures the script alone.
    worker.once('online', () => {
      if (this.worker !== worker) return;
      this.isWorkerOnline = true;
      for (const [id, call] of this.pending) if (call.timer === undefined) this.startWatchdog(id, call);
    });
    worker.on('message', (reply: WorkerReply) => this.settle(reply));
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const isMemory = /memory|heap/i.test(error.message) || (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.rejectAll((call) =>
        new ScenarioRunnerError('mock_script', `${call.label}: ${isMemory ? `the script ran out of memory (limit ${this.memoryLimitMb} MiB)` : `the script runner failed: ${error.message}`}`),
      );
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.rejectAll((call) => new ScenarioRunnerError('mock_script', `${call.label}: the script runner stopped unexpectedly`));
    });
    this.worker = worker;
    return worker;
  }

  /** The vm limit stops ordinary loops; this one catches what it cannot, at twice the limit plus slack. */
  private startWatchdog(id: number, call: PendingCall): void {
    call.timer = setTimeout(() => this.abandonWorker(id), this.timeoutMs * 2 + 1000);
  }

  private settle(reply: WorkerReply): void {
    const call = this.pending.get(reply.id);
    if (call === undefined) return;
    this.pending.delete(reply.id);
    clearTimeout(call.timer);
    if (reply.isOk) {
      call.resolve(JSON.parse(reply.json ?? 'null') as unknown);
    } else if (reply.errorKind === 'timeout') {
      call.reject(new ScenarioRunnerError('mock_script_timeout', `${call.label}: the script ran longer than ${this.timeoutMs} ms and was stopped`));
    } else {
      call.reject(new ScenarioRunnerError('mock_script', `${call.label}: ${reply.message ?? 'the script failed'}`));
    }
  }

  private abandonWorker(id: number): void {
    const call = this.pending.get(id);
    if (call === undefined) return;
    const worker = this.worker;
    this.worker = undefined;
    this.rejectAll((pendingCall) =>
      new ScenarioRunnerError('mock_script_timeout', `${pendingCall.label}: the script did not finish within ${this.timeoutMs} ms; its worker was terminated`),
    );
    void worker?.terminate();
  }

  private rejectAll(makeError: (call: PendingCall) => Error): void {
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      this.pending.delete(id);
      call.reject(makeError(call));
    }
  }
}
