// Small helpers every benchmark shares: its whole-number flags and its percentiles.
import { appendFileSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

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

/**
 * `pnpm bench --quick` (scripts/bench.mjs passes `--quick` on): every bench once with tiny sizes, to
 * show it still runs (`pnpm test` runs it), not to measure anything.
 */
export const isQuick = process.argv.includes('--quick');

/** `full` in a measuring run, `quick` under --quick. */
export function sized(full, quick) {
  return isQuick ? quick : full;
}

/**
 * One figure of a bench, printed as before by the bench and also written (one JSON line) to the file
 * AGENTBENCH_BENCH_FIGURES names, which `pnpm bench --json FILE` gathers into one document:
 * `{ name, value, unit, baseline?: { name, value }, target? }`. `baseline` is the same-run measure the
 * figure is read against; `target` the goal in words ("< 5 ms").
 */
export function recordFigure(bench, figure) {
  const value = Number.isFinite(figure.value) ? figure.value : null;
  const baseline = figure.baseline === undefined ? undefined : { name: figure.baseline.name, value: Number.isFinite(figure.baseline.value) ? figure.baseline.value : null };
  writeLine({ bench, figure: { ...figure, value, ...(baseline === undefined ? {} : { baseline }) } });
}

function writeLine(entry) {
  const file = process.env.AGENTBENCH_BENCH_FIGURES;
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/**
 * A bench that cannot run here (no engine, no image, no Chromium): prints why and records it, unless
 * the variable CI sets for it (AGENTBENCH_REQUIRE_DOCKER, AGENTBENCH_REQUIRE_TOOLS) is 1: then it throws.
 */
export function skipBench(bench, reason, variable) {
  if (process.env[variable] === '1') throw new Error(`${variable}=1 but ${reason}`);
  console.log(`${bench} skipped: ${reason}`);
  writeLine({ bench, skipped: reason });
}

/**
 * True (after skipBench) when there is no Docker engine or no runner image here; false when the bench
 * can run. Under AGENTBENCH_REQUIRE_DOCKER=1 (CI) a missing engine or image throws instead.
 */
export function isSkippedWithoutDocker(bench, image = process.env.AGENTBENCH_RUNNER_IMAGE ?? 'agentbench/py-runner:0.1.0') {
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'pipe', timeout: 20_000 });
    return false;
  } catch {
    skipBench(bench, `Docker engine not reachable or runner image ${image} missing (docker/py-runner/build-offline.sh builds it)`, 'AGENTBENCH_REQUIRE_DOCKER');
    return true;
  }
}

/** Busy CPU seconds of the whole machine (every user) so far, from /proc/stat's first line (USER_HZ 100). */
export function machineBusySeconds() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}
