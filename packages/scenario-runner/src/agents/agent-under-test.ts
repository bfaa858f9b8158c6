import type { AgentSpec } from '@agentbench/schemas';

/** A message of the conversation so far, as the agent under test sees it. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AgentTurnRequest {
  input: string;
  /** Earlier user and assistant messages of this conversation (or run), oldest first. */
  history: readonly ChatMessage[];
  /** Aborts at the turn's timeout. */
  signal: AbortSignal;
  /** 1 for single-turn steps. */
  turn: number;
}

export interface AgentTurnResult {
  response: string;
}

/** The agent being evaluated. Its service calls go through the run's gateway, so mocks reach it unchanged. */
export interface AgentUnderTest {
  readonly kind: AgentSpec['type'];
  /** One line for plans and summaries: `llm openai/gpt-4o at https://...`. */
  readonly description: string;
  respond(request: AgentTurnRequest): Promise<AgentTurnResult>;
  dispose?(): Promise<void>;
}

// The `agent:` block is a file format, so its schema lives in @agentbench/schemas; re-exported here.
export { AgentSpecSchema, type AgentSpec } from '@agentbench/schemas';

export const DEFAULT_AGENT_SPEC: AgentSpec = { type: 'llm' };
