// Helpers that other @agentbench packages use. Not user API: `@agentbench/agent-loop/internal` may
// change in any release. Users import from `@agentbench/agent-loop`.

// The limits an attempt runs with, defaults filled in (the harness records them).
export { resolveLoopLimits } from './loop/loop-limits.js';

// `ab run` checks every task's agent before a run starts (what stops it, without running the agent).
export { agentStartProblem, type AgentStartProblem } from './agents/agent-start-problem.js';
