// Helpers that other @agentbench packages use. Not user API: `@agentbench/tools/internal` may
// change in any release. Users import from `@agentbench/tools`.

// The glob matcher of list_files and search (the CLI's error-report test throws a GlobSyntaxError with it).
export { compileGlob, type GlobMatcher } from './text/glob-matcher.js';
