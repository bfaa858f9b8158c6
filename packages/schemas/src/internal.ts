// Helpers that other @agentbench packages share, each kept once, here in the lowest package.
// Not user API: `@agentbench/schemas/internal` may change in any release. Users import from
// `@agentbench/schemas`.

// Typo suggestions ("did you mean ...?"); `closestName` on top of it is public.
export { editDistance } from './shared/edit-distance.js';
// The UTC time part of run folder names (harness runs, scenario and matrix results).
export { timestampForPath } from './shared/timestamp-for-path.js';
// Quoting a word for `sh -c`.
export { quoteShellWord, quoteShellWords, type QuoteShellWordOptions } from './shared/quote-shell-word.js';
// Finding a plugin's or custom agent's module file the way Node's `import` would.
export { resolveModulePath, resolvePackageEntry, isPathReference, type ModuleResolution } from './modules/resolve-module-path.js';
// Writing records so a crash never leaves half a file (attempts.jsonl, run.json, result.json).
export { writeJsonAtomic, appendJsonLine } from './records/record-files.js';
