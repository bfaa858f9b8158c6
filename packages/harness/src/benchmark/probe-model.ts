import { createLlmClient, resolveLlmConfig } from '@agentbench/agent-loop';

/** What a probe found: does the model answer at all? */
export interface ProbeOutcome {
  isAnswering: boolean;
  message: string;
}

/** Asks a model whether it answers; throwing counts as not answering. */
export type ModelProbe = (model: string, signal?: AbortSignal) => Promise<ProbeOutcome>;

/** A cheap call (no retries, 16 output tokens, 30 s): does the model answer at all (key, name, quota)? */
export const probeModel: ModelProbe = async (model, signal) => {
  const config = resolveLlmConfig({ model, maxRetries: 0, timeoutMs: 30_000 });
  const client = createLlmClient({ ...config.client, sampling: { maxOutputTokens: 16 } });
  const response = await client.complete({ messages: [{ role: 'user', content: 'Reply with the single word OK.' }], ...(signal === undefined ? {} : { signal }) });
  return { isAnswering: true, message: `answered ${JSON.stringify((response.text ?? '').slice(0, 40))}` };
};
