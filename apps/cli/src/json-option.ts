/** `--json` of a command: off by default; what it prints instead of text is the command's own to say. */
export function jsonOption(describe: string) {
  return { type: 'boolean' as const, default: false, describe };
}
