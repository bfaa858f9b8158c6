/** `<suite>` of the commands that take one suite (list-tasks, validate-suite). */
export const SUITE_POSITIONAL = {
  type: 'string',
  demandOption: true,
  describe: 'Suite name (a folder under --tasks)',
} as const;

/** `--tasks`, where the suites are (list-tasks, validate-suite, run, bench-models). */
export const TASKS_FOLDER_OPTION = {
  type: 'string' as const,
  default: 'tasks',
  describe: 'Folder that holds the task suites',
};

/** `--include-flaky`: a suite's tasks labelled flaky are left out unless asked for (validate-suite, run). */
export const INCLUDE_FLAKY_OPTION = {
  type: 'boolean' as const,
  default: false,
  describe: "Also run the suite's tasks labelled flaky (left out by default)",
};
