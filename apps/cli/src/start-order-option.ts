/**
 * `--order` of the commands that start many attempts (ab run, ab bench-models, ab validate-suite): the
 * order they start in. Longest first by default, so no long attempt is left to run alone at the end
 * while the other slots sit idle; `as-listed` keeps the suite's order (harness: longest-first-order.ts).
 */
export const START_ORDER_OPTION = {
  choices: ['longest-first', 'as-listed'] as const,
  default: 'longest-first' as const,
  describe:
    "The order attempts start in: longest-first (each task's median duration in the earlier runs beside this one, else its timeout) or as-listed (the suite's order). run.json records the order used",
};

export type StartOrder = (typeof START_ORDER_OPTION.choices)[number];
