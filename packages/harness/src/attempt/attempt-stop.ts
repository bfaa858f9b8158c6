import type { FailureReason } from '@agentbench/schemas';

/** Ends an attempt early with a recorded reason: the task or the agent failed, not our code. */
export class AttemptStop {
  constructor(
    readonly failureReason: FailureReason,
    readonly message: string,
    readonly exitCode?: number,
  ) {}
}
