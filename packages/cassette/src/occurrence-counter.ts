/** Counts, per role, the requests seen (the step) and how often each request hash came (the occurrence). */
export class OccurrenceCounter {
  private readonly steps = new Map<string, number>();
  private readonly occurrences = new Map<string, number>();

  /** The next request of `role` with this hash: its 1-based step among the role's requests and its occurrence. */
  next(role: string, hash: string): { step: number; occurrence: number } {
    return { step: this.nextStep(role), occurrence: this.nextOccurrence(role, hash) };
  }

  /** The next request's 1-based step among the role's requests, taken when it arrives. */
  nextStep(role: string): number {
    const step = (this.steps.get(role) ?? 0) + 1;
    this.steps.set(role, step);
    return step;
  }

  /** How often a request with this hash has come in this role, this one included. */
  nextOccurrence(role: string, hash: string): number {
    const occurrenceKey = `${role}\n${hash}`;
    const occurrence = (this.occurrences.get(occurrenceKey) ?? 0) + 1;
    this.occurrences.set(occurrenceKey, occurrence);
    return occurrence;
  }
}
