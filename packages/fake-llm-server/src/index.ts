// The public surface: the server, its options and script types, the request record and the error.
// Everything else (reply normalization, the endpoints, the CLI's script-file reader) is internal.
export { FakeLlmServerError } from './errors/fake-llm-server-error.js';
export { startFakeLlmServer, type FakeLlmServer } from './server/start-fake-llm-server.js';
export type { FakeLlmServerOptions, FakeScript, FakeScriptFunction } from './server/fake-llm-server-options.js';
export type { RecordedRequest, RequestOutcome } from './server/recorded-request.js';
export { lastUserText, requestedModel } from './server/request-text.js';
export type {
  FakeFaultReply,
  FakeMessageReply,
  FakeReply,
  FakeStatusReply,
  FakeToolCall,
  FakeUsage,
  Fault,
  FinishReason,
} from './replies/fake-reply.js';
