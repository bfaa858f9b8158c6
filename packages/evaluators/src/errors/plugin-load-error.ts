import { EvaluatorsError } from './evaluators-error.js';

/**
 * A plugin could not be loaded: not installed, path not found, the module threw on import, or it has no
 * valid plugin export. The message names the reference, where it came from, the resolved path and the cause.
 */
export class PluginLoadError extends EvaluatorsError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.plugin-load-error');
  override readonly name: string = 'PluginLoadError';
  /** The reference as written: a package name or a relative path. */
  readonly reference: string;
  /** The file the reference resolved to, when it resolved. */
  readonly resolvedPath: string | undefined;

  constructor(reference: string, message: string, options?: { resolvedPath?: string; cause?: unknown }) {
    super(message, options);
    this.reference = reference;
    this.resolvedPath = options?.resolvedPath;
  }
}
