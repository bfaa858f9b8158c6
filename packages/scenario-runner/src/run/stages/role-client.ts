import { createLlmClient, type LlmClient } from '@agentbench/agent-loop';
import type { ModelProxy } from '@agentbench/cassette';
import { roleClientOptions, type LlmSettings } from '../../llm/llm-settings.js';
import type { ScenarioRunResult } from '../scenario-result.js';

/** An LLM client for the agent or the user simulator; the first model each role uses is recorded. */
export function createRoleClient(
  role: 'agent' | 'simulator',
  settings: LlmSettings,
  env: Readonly<Record<string, string | undefined>>,
  sampling: { temperature?: number; maxOutputTokens?: number } | undefined,
  models: ScenarioRunResult['parameters']['models'],
  headers?: Record<string, string>,
  modelProxy?: ModelProxy,
): LlmClient {
  const options = roleClientOptions(role, settings, env);
  if (modelProxy !== undefined) options.transportBaseURL = modelProxy.baseUrlFor(role);
  if (sampling !== undefined) options.sampling = sampling;
  if (headers !== undefined) options.headers = headers;
  models[role] ??= options.model;
  return createLlmClient(options);
}
