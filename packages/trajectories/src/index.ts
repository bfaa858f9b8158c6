// Installed agents' own event streams as events.jsonl steps, and any attempt's trajectory as ATIF.
export { TrajectoryError } from './errors/trajectory-error.js';
export type { AgentTrajectory, TrajectoryStep } from './agent-trajectory.js';
export { parseAgentStream, AGENT_STREAM_FORMATS, type AgentStreamFormat, type StreamParseOptions } from './agent-stream-formats.js';
export { mergeGatewayTurns } from './gateway/merge-gateway-turns.js';
export { trajectoryEvents, type TrajectoryEventsOptions } from './trajectory-events.js';
export { attemptToAtif, type AtifExportInput } from './atif/attempt-to-atif.js';
export { agentTranscript } from './atif/agent-transcript.js';
export { atifProblems, type AtifTrajectory } from './atif/atif-schema.js';
export { parseEventLines, parseJsonLines } from './atif/parse-event-lines.js';
