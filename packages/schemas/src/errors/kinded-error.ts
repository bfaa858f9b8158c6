import { MarkedError } from './marked-error.js';

/**
 * A package's base error whose callers branch on a `kind` (`SandboxError`, `ScenarioRunnerError`): the
 * kind is a union of the package's own, so a switch over it is checked. The class still names its
 * marker and its name, as every MarkedError does.
 */
export abstract class KindedError<Kind extends string> extends MarkedError {
  readonly kind: Kind;

  constructor(kind: Kind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}
