// @agentbench/helpers: the small helpers two or more @agentbench packages need, each kept once.
// What belongs here, and what does not: README.md.

// Reading parsed JSON and describing a bad value in an error message.
export { isRecord } from './is-record.js';
export { describeValue } from './describe-value.js';

// Existence checks that answer false instead of throwing.
export { pathExists, isFile, isDirectory } from './path-checks.js';

// Records written so that a crash never leaves half a file (attempts.jsonl, run.json, result.json).
export { writeJsonAtomic, appendJsonLine } from './record-files.js';

// Text: typo distance ("did you mean"), plain-text tables, the UTC time part of run folder names, `sh -c` quoting.
export { editDistance } from './edit-distance.js';
export { formatTable } from './format-table.js';
export { timestampForPath } from './timestamp-for-path.js';
export { quoteShellWord, quoteShellWords, type QuoteShellWordOptions } from './quote-shell-word.js';

// Finding a plugin's or custom agent's module file the way Node's `import` would.
export { resolveModulePath, resolvePackageEntry, isPathReference, type ModuleResolution } from './resolve-module-path.js';

// The host's CPU now: counters for the idle share between two looks, and the run queue (warm pools, -j auto).
export { cpuWaitShare, hostCpuPressure, hostCpuTimes, hostRunQueue, idleCoresBetween, type CpuPressure, type CpuTimes } from './host-cpu.js';
