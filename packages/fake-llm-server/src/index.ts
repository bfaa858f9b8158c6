// The public surface: the server, its options and script types, the request record and the error.
// Everything else (reply normalization, the endpoints, the CLI's script-file reader, each reply
// variant's own type) is internal.
export { FakeLlmServerError } from './errors/fake-llm-server-error.js';
export { startFakeLlmServer, type FakeLlmServer } from './server/start-fake-llm-server.js';
export type { FakeLlmServerOptions, FakeScript } from './server/fake-llm-server-options.js';
export type { RecordedRequest } from './server/recorded-request.js';
export { lastUserText, requestedModel } from './server/request-text.js';
export type { FakeReply, FakeToolCall, FakeUsage, Fault } from './replies/fake-reply.js';
