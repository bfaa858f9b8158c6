/** `--max-steps` of the commands that run an agent (run-agent, run, bench-models). */
export const MAX_STEPS_OPTION = {
  type: 'number' as const,
  describe: "Tool calls allowed, model requests for an installed agent (default: the task's agent.max_steps, else 30)",
};
