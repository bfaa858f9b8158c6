/** `--plugin` of the commands that read scenario files (scenario run and matrix, validate). */
export const PLUGIN_OPTION = {
  type: 'string',
  array: true,
  describe: 'Load a plugin (package name or path), as if listed in the file; repeatable',
} as const;
