/** Counts, per role, the requests seen (the step) and how often each request hash came (the occurrence). */
export class OccurrenceCounter {
  private readonly steps = new Map<string, number>();
  private readonly occurrences = new Map<string, number>();

  /** The next request of `role` with this hash: its 1-based step among the role's requests and its occurrence. */
  next(role: string, hash: string): { step: number; occurrence: number } {
    const step = (this.steps.get(role) ?? 0) + 1;
    this.steps.set(role, step);
    const occurrenceKey = `${role}\n${hash}`;
    const occurrence = (this.occurrences.get(occurrenceKey) ?? 0) + 1;
    this.occurrences.set(occurrenceKey, occurrence);
    return { step, occurrence };
  }
}
