import { CassetteError } from './cassette-error.js';

/** The model endpoint a recording proxy forwards to refused the connection or does not exist. */
export class UpstreamUnreachableError extends CassetteError {
  override readonly name: string = 'UpstreamUnreachableError';
  readonly upstream: string;

  constructor(upstream: string, reason: string, options: { cause?: unknown } = {}) {
    super(`cannot reach the upstream ${upstream}: ${reason}`, options);
    this.upstream = upstream;
  }
}
