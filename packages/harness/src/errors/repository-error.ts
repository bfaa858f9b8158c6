import { HarnessError } from './harness-error.js';

export type RepositoryStage = 'git_clone' | 'git_checkout';

/** Cloning or checking out a task's repository failed; the message carries git's own words. */
export class RepositoryError extends HarnessError {
  static override readonly marker: symbol = Symbol.for('agentbench.harness.repository-error');
  override readonly name = 'RepositoryError';
  readonly stage: RepositoryStage;
  /** The repository as the task names it (after resolving relative paths). */
  readonly url: string;
  /** Where it was actually read from (a mirror, the cache), when that differs. */
  readonly source?: string;
  readonly commit: string;
  /** git's stderr (or the reason when git did not run). */
  readonly gitMessage: string;

  constructor(options: { stage: RepositoryStage; url: string; source?: string; commit: string; gitMessage: string; cause?: unknown }) {
    const what = options.stage === 'git_clone' ? `cannot clone ${options.url}` : `cannot check out ${options.commit} of ${options.url}`;
    const via = options.source !== undefined && options.source !== options.url ? ` (from ${options.source})` : '';
    super(`${what}${via}: ${options.gitMessage.trim() || 'git gave no message'}`, {
      cause: options.cause,
      failureReason: options.stage === 'git_clone' ? 'GIT_CLONE_FAILED' : 'GIT_CHECKOUT_FAILED',
    });
    this.stage = options.stage;
    this.url = options.url;
    if (options.source !== undefined) this.source = options.source;
    this.commit = options.commit;
    this.gitMessage = options.gitMessage.trim();
  }
}
