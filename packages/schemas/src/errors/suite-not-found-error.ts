import { SchemasError } from './schemas-error.js';

/** `loadSuite` found no task of the requested suite. The message lists the suites that do exist. */
export class SuiteNotFoundError extends SchemasError {
  static override readonly marker: symbol = Symbol.for('agentbench.schemas.suite-not-found-error');
  override readonly name = 'SuiteNotFoundError';
  readonly suite: string;
  readonly tasksDir: string;
  readonly availableSuites: readonly string[];

  /** `hint`: what to do instead, said in place of the (empty) list of suites. */
  constructor(options: { suite: string; tasksDir: string; availableSuites: readonly string[]; reason?: string; hint?: string }) {
    const available =
      options.hint ?? (options.availableSuites.length === 0 ? 'no suites exist there' : `suites that exist: ${options.availableSuites.join(', ')}`);
    super(`unknown suite "${options.suite}" in ${options.tasksDir}${options.reason ? ` (${options.reason})` : ''}: ${available}`);
    this.suite = options.suite;
    this.tasksDir = options.tasksDir;
    this.availableSuites = options.availableSuites;
  }
}
