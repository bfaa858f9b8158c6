// Helpers that other @agentbench packages use. Not user API: `@agentbench/agent-loop/internal` may
// change in any release. Users import from `@agentbench/agent-loop`.

// The limits an attempt runs with, defaults filled in (the harness records them).
export { resolveLoopLimits } from './loop/loop-limits.js';
