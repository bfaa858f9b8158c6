/**
 * Caps on what a parser reads from an agent's stream. The stream is written by the agent, inside the
 * sandbox: an attacker. Past a cap the parser fails with a clear error rather than holding the host's memory.
 */
export const STREAM_LIMITS = {
  /** Bytes of a whole stream (characters, as read). */
  streamCharacters: 64 * 1024 * 1024,
  /** Characters of one JSONL line. */
  lineCharacters: 8 * 1024 * 1024,
  /** Steps (model turns and tool calls) of one trajectory. */
  steps: 20_000,
  /** Characters of a command's output, a tool's result or a model message kept in a step. */
  excerptCharacters: 4_000,
  /** Characters of a file path or a command line kept. */
  labelCharacters: 4_096,
} as const;

/** The first `limit` characters of a text, with how much was cut. */
export function excerpt(text: string, limit: number = STREAM_LIMITS.excerptCharacters): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length - limit} more characters)` : text;
}

/**
 * A path as the agent named it, made safe to show: control characters replaced, length capped, and a
 * path under the workspace made relative to it. It stays a label: nothing opens it.
 */
export function pathLabel(raw: string, workspace: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  let label = raw.replace(/[\u0000-\u001f\u007f]/g, '?');
  if (workspace !== undefined && workspace !== '') {
    const root = workspace.endsWith('/') ? workspace : `${workspace}/`;
    if (label.startsWith(root)) label = label.slice(root.length);
  }
  return label.length > STREAM_LIMITS.labelCharacters ? `${label.slice(0, STREAM_LIMITS.labelCharacters)}…` : label;
}
