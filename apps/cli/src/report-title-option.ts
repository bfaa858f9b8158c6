/** `--title` of the HTML report (report, view). */
export const REPORT_TITLE_OPTION = {
  type: 'string' as const,
  describe: 'Title of the HTML page',
};
