import type { FailureReason } from '../records/failure-reason.js';
import { AgentBenchError } from './agentbench-error.js';

/** A class of the family, as `isInstance` sees it: what its instances are, and the marker it sets. */
type MarkedErrorClass<Instance> = (abstract new (...parameters: never[]) => Instance) & { readonly marker: symbol };

/**
 * The one base of the package error classes (`SchemasError`, `ReportError`, ... and the classes under
 * them), so that none writes its marker and `isInstance` again. A class names its marker and its name:
 *
 *     export class ReportError extends MarkedError {
 *       static override readonly marker: symbol = Symbol.for('agentbench.report-error');
 *       override readonly name: string = 'ReportError';
 *     }
 *
 * An instance carries the marker of its class and of every class between it and this one (and
 * AgentBenchError's), and `isInstance`, called on any class, checks that class's `Symbol.for`
 * marker rather than `instanceof`: an error from another copy of a package (two versions in
 * node_modules, a bundled plugin) is still recognised.
 */
export abstract class MarkedError extends AgentBenchError {
  /**
   * The `Symbol.for` key a class marks its instances with. A class that declares none shares its
   * parent's, and its `isInstance` then answers for the parent: a class callers branch on declares one.
   */
  static readonly marker: symbol = Symbol.for('agentbench.error');

  /** How an attempt that hit the error is recorded, when the error knows (read by `failureReasonForError` of @agentbench/scoring). */
  readonly failureReason?: FailureReason;

  constructor(message: string, options?: { cause?: unknown; failureReason?: FailureReason }) {
    super(message, options);
    if (options?.failureReason !== undefined) this.failureReason = options.failureReason;
    for (let type: unknown = new.target; type !== MarkedError && typeof type === 'function'; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'marker')) (this as unknown as Record<symbol, boolean>)[(type as unknown as { marker: symbol }).marker] = true;
    }
  }

  /** Call it on its class (`ToolsError.isInstance(error)`); as a callback, wrap it: `(error) => ToolsError.isInstance(error)`. */
  static override isInstance<Instance extends AgentBenchError>(this: MarkedErrorClass<Instance>, value: unknown): value is Instance {
    // Unbound (`.filter(ToolsError.isInstance)`) it cannot know its class: say so rather than fail on `undefined.marker`.
    if (this === undefined) throw new TypeError('isInstance was called without its class: call it as ErrorClass.isInstance(error), or pass (error) => ErrorClass.isInstance(error)');
    return typeof value === 'object' && value !== null && this.marker in value;
  }
}
