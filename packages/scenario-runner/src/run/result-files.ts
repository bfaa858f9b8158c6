/** A scenario name as a folder name part: `Test GitHub Issues Listing` → `test-github-issues-listing`. */
export function slugForPath(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug === '' ? 'scenario' : slug;
}


/** What a run started with (agent, models per role, seed, matrix cell...), written before it runs: what a replay needs. */
export const RUN_SETTINGS_FILE = 'run-settings.json';
/** The scenario file's text as the run read it, beside `result.json`. */
export const SCENARIO_COPY_FILE = 'scenario.yaml';
