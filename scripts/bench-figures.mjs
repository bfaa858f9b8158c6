// Small helpers every benchmark shares: its whole-number flags and its percentiles.

/** `--name N` from the command line: a whole number ≥ 1, else `fallback`. */
export function wholeNumberArgument(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}: expected a whole number ≥ 1, found ${process.argv[index + 1]}`);
  return value;
}

/** The nearest-rank percentile (`fraction` 0.5 is the lower median); NaN for no values. */
export function percentile(values, fraction) {
  const sorted = [...values].sort((left, right) => left - right);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** Median, p95 and count of a list of durations. */
export function summary(durations) {
  return { median: percentile(durations, 0.5), p95: percentile(durations, 0.95), runs: durations.length };
}
