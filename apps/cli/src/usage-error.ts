/** A mistake in how the command was called: printed with a pointer to --help. */
const userErrorMarker = Symbol.for('agentbench.error');

export class UsageError extends Error {
  readonly [userErrorMarker] = true;
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(`${message}\nRun \`ab --help\` for usage.`);
  }
}
