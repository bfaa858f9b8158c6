export { ExecutorClient, toSandboxError as executorErrorToSandboxError, type ExecutorConnection, type ExecSinks, type PathStatus, type RunningCommand } from './executor-client.js';
export { EXECUTOR_BOOTSTRAP, executorArgv, executorScriptLine, connectExecutorProcess } from './executor-launch.js';
export { EXECUTOR_SCRIPT } from './executor-script.js';
export { EXECUTOR_PROTOCOL_VERSION, JsonLineDecoder, encodeRequest, type ExecutorRequest, type ExecutorMessage, type ExitMessage, type ReadyMessage } from './protocol.js';
export { execOnChannel, resultOf, type ChannelExecOptions } from './channel-exec.js';
export type { CommandChannel } from './command-channel.js';
