export { FakeLlmServerError } from './errors/fake-llm-server-error.js';
export { startFakeLlmServer, type FakeLlmServer } from './server/start-fake-llm-server.js';
export type { FakeLlmServerOptions, FakeScript, FakeScriptFunction } from './server/fake-llm-server-options.js';
export type { RecordedRequest, RequestOutcome } from './server/recorded-request.js';
export { lastUserText, requestedModel } from './server/request-text.js';
export {
  FAULTS,
  FINISH_REASONS,
  type FakeFaultReply,
  type FakeMessageReply,
  type FakeReply,
  type FakeStatusReply,
  type FakeToolCall,
  type FakeUsage,
  type Fault,
  type FinishReason,
} from './replies/fake-reply.js';
export { loadScriptFile, type ScriptFile } from './cli/load-script-file.js';
export { countWords } from './openai/token-count.js';
