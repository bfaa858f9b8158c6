import type { LlmClient, LlmMessage } from '@agentbench/agent-loop';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { UsageMeter } from '../llm/usage-meter.js';
import type { ServiceGateway } from '../services/service-gateway.js';
import type { TrajectoryRecorder } from '../trajectory/trajectory-recorder.js';
import type { AgentTurnRequest, AgentTurnResult, AgentUnderTest } from './agent-under-test.js';
import { serviceTools, type ServiceTool } from './service-tools.js';

export const DEFAULT_LLM_AGENT_SYSTEM_PROMPT = [
  'You are a capable assistant. Answer the user directly and helpfully.',
  'You can call the functions you are given (your tools and services); call them when they help you answer, and base your answer on what they return.',
  'When a call fails, say so rather than inventing a result.',
].join(' ');

export interface LlmAgentUnderTestOptions {
  client: LlmClient;
  gateway: ServiceGateway;
  trajectory: TrajectoryRecorder;
  usage: UsageMeter;
  systemPrompt?: string;
  maxToolRounds?: number;
  services?: readonly string[];
}

function parseArguments(text: string): { value: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: `expected a JSON object of arguments, found ${text.slice(0, 100)}` };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { problem: `the arguments are not valid JSON (${(error as Error).message}): ${text.slice(0, 100)}` };
  }
}

/**
 * Our LLM agent under test: a chat loop where every service method is a function. Each tool call goes
 * through the gateway (mocks, trajectory); the loop ends when the model answers without calling anything.
 */
export class LlmAgentUnderTest implements AgentUnderTest {
  readonly kind = 'llm' as const;
  readonly description: string;
  private readonly options: LlmAgentUnderTestOptions;
  private readonly tools: ServiceTool[];

  constructor(options: LlmAgentUnderTestOptions) {
    this.options = options;
    this.tools = serviceTools(options.gateway.services, options.services);
    this.description = `llm ${options.client.model} at ${options.client.baseURL} (${this.tools.length} functions)`;
  }

  async respond(request: AgentTurnRequest): Promise<AgentTurnResult> {
    const { client, gateway, trajectory, usage } = this.options;
    const maxRounds = this.options.maxToolRounds ?? 10;
    const byName = new Map(this.tools.map((tool) => [tool.definition.name, tool] as const));
    const messages: LlmMessage[] = [
      { role: 'system', content: this.options.systemPrompt ?? DEFAULT_LLM_AGENT_SYSTEM_PROMPT },
      ...request.history.map((message) => ({ role: message.role, content: message.content }) as LlmMessage),
      { role: 'user', content: request.input },
    ];
    for (let round = 0; round <= maxRounds; round += 1) {
      const response = await client.complete({
        messages,
        ...(this.tools.length === 0 ? {} : { tools: this.tools.map((tool) => tool.definition) }),
        signal: request.signal,
      });
      usage.recordCall('agent', response.usage, response.durationMs);
      if (response.toolCalls.length === 0) {
        if (response.text === null || response.text.trim() === '') {
          throw new ScenarioRunnerError('agent', `the agent (${client.model}) answered with neither text nor a function call (finish reason ${response.finishReason ?? 'none'})`);
        }
        return { response: response.text };
      }
      if (round === maxRounds) break;
      if (response.text !== null && response.text.trim() !== '') trajectory.thought(response.text);
      messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });
      for (const call of response.toolCalls) {
        const tool = byName.get(call.name);
        let content: string;
        if (tool === undefined) {
          trajectory.action(call.name, call.arguments, { isUnknownFunction: true }).success = false;
          content = JSON.stringify({ ok: false, error: { code: 'UNKNOWN_FUNCTION', message: `no function ${call.name}; available: ${[...byName.keys()].join(', ')}` } });
        } else {
          const parsed = parseArguments(call.arguments);
          if ('problem' in parsed) {
            trajectory.action(call.name, call.arguments, { service: tool.service, method: tool.method }).success = false;
            content = JSON.stringify({ ok: false, error: { code: 'INVALID_ARGUMENTS', message: parsed.problem } });
          } else {
            const outcome = await gateway.call({ service: tool.service, method: tool.method, input: parsed.value, context: { caller: 'llm-agent', turn: request.turn } }, request.signal);
            content = JSON.stringify(outcome.isOk ? { ok: true, value: outcome.value } : { ok: false, error: outcome.error });
          }
        }
        messages.push({ role: 'tool', toolCallId: call.id, content });
      }
    }
    throw new ScenarioRunnerError('agent', `the agent (${client.model}) kept calling functions for ${maxRounds} rounds without answering (max_tool_rounds)`);
  }
}
