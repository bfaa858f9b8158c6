import { PluginLoadError } from './plugin-load-error.js';

/** A plugin's declared version does not satisfy the version its reference asks for. */
export class PluginVersionError extends PluginLoadError {
  static override readonly marker: symbol = Symbol.for('agentbench.evaluators.plugin-version-error');
  override readonly name = 'PluginVersionError';
  readonly requestedVersion: string;
  readonly declaredVersion: string;

  constructor(reference: string, message: string, options: { resolvedPath?: string; requestedVersion: string; declaredVersion: string }) {
    super(reference, message, { resolvedPath: options.resolvedPath });
    this.requestedVersion = options.requestedVersion;
    this.declaredVersion = options.declaredVersion;
  }
}
