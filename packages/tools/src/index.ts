// The public surface: the tool set and its context, the function-calling definitions, and the
// errors. The tools' implementations, parameter schemas, patch engine and path helpers are internal.

// Tool set
export { createToolSet, type ToolSet } from './tool-set.js';
export { DEFAULT_TOOL_LIMITS, DEFAULT_TOOL_TIMEOUTS_SEC, type ToolContext, type ToolLimits } from './tool-context.js';

// Function-calling definitions
export { toolDefinitions, toolDefinition, type FunctionToolDefinition } from './tool-definitions.js';
export type { JsonSchema } from './parameters.js';

// Errors
export { ToolsError } from './errors/tools-error.js';
export { GlobSyntaxError } from './text/glob-matcher.js';
