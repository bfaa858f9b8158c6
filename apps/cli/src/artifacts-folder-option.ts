/** `--out` of the commands that write under an artifacts folder (run-task, run-agent, validate-suite); `where` says what goes where in it. */
export function artifactsFolderOption(where: string) {
  return { type: 'string' as const, default: 'artifacts', describe: `Artifacts folder; ${where}` };
}
