// What the package's own bench (bench/scenario.bench.mjs) measures beside the public API: the mock
// engine's isolated script runner, internal by design (README, DESIGN notes). Built to
// dist/bench-entry.js for the bench only; it is not in the exports map, so no user can import it.
export { IsolatedScriptRunner } from './mocks/isolated-script-runner.js';
