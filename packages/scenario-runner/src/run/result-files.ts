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

