import semver from 'semver';

// A bare version, full or partial: `1`, `1.2`, `1.2.3`, `v1.2.3-rc.1`.
const BARE_VERSION = /^v?\d+(?:\.\d+(?:\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)?$/;

/**
 * Whether a plugin's declared version satisfies the `version` of its reference: an npm range
 * (`semver.satisfies`, prereleases only where the range names one), e.g. `^1.2.3`, `~1.2.3`,
 * `>=1.2.3 <2`, `^1.2.0 || ^2`, `1.x`. Two rules of ours on top:
 * - a bare version (`1.2.3`, `1.2`, `1`) means compatible with it, `^1.2.3` (npm reads `1.2.3` as exactly);
 * - `*`, `x` and `latest` accept any version, a prerelease too.
 * Returns a problem text for a requirement that is not a range, or a declared version that is not semantic.
 */
export function satisfiesVersion(declared: string, requirement: string): { isSatisfied: boolean } | { problem: string } {
  const text = requirement.trim();
  if (text === '*' || text === 'x' || text === 'latest') return { isSatisfied: true };
  const range = BARE_VERSION.test(text) ? `^${text}` : text;
  if (semver.validRange(range) === null) {
    return { problem: `version ${JSON.stringify(requirement)} is not a version requirement (expected an npm range such as 1.2.3, ^1.2.3, ~1.2.3, >=1.2.3 <2, ^1 || ^2 or *)` };
  }
  if (semver.valid(declared) === null) return { problem: `the plugin declares version ${JSON.stringify(declared)}, which is not a semantic version` };
  return { isSatisfied: semver.satisfies(declared, range) };
}
