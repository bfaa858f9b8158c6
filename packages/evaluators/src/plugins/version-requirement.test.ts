import { describe, expect, it } from 'vitest';
import { satisfiesVersion } from './version-requirement.js';

const satisfied = (declared: string, requirement: string) => {
  const verdict = satisfiesVersion(declared, requirement);
  return 'problem' in verdict ? verdict.problem : verdict.isSatisfied;
};

describe('plugin version requirements', () => {
  it('treats a plain version as compatible (caret)', () => {
    expect(satisfied('1.2.0', '1.0.0')).toBe(true);
    expect(satisfied('1.2.0', '1.3.0')).toBe(false);
    expect(satisfied('2.0.0', '1.0.0')).toBe(false);
    expect(satisfied('0.2.5', '^0.2.1')).toBe(true);
    expect(satisfied('0.3.0', '^0.2.1')).toBe(false);
    expect(satisfied('1.0.0-rc.1', '1.0.0')).toBe(false);
  });

  it('supports ~, =, >=, * and short versions', () => {
    expect(satisfied('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfied('1.3.0', '~1.2.3')).toBe(false);
    expect(satisfied('1.2.3', '=1.2.3')).toBe(true);
    expect(satisfied('1.2.4', '=1.2.3')).toBe(false);
    expect(satisfied('5.0.0', '>=1.2.3')).toBe(true);
    expect(satisfied('0.0.1', '*')).toBe(true);
    expect(satisfied('1.4.0', '1')).toBe(true);
  });

  it('supports npm ranges: unions, intervals, x-ranges', () => {
    expect(satisfied('2.5.0', '^1.2.0 || ^2')).toBe(true);
    expect(satisfied('1.2.7', '^1.2.0 || ^2')).toBe(true);
    expect(satisfied('1.1.0', '^1.2.0 || ^2')).toBe(false);
    expect(satisfied('3.0.0', '^1.2.0 || ^2')).toBe(false);
    expect(satisfied('1.9.0', '>=1.2.3 <2')).toBe(true);
    expect(satisfied('2.0.0', '>=1.2.3 <2')).toBe(false);
    expect(satisfied('1.7.1', '1.x || 2')).toBe(true);
    expect(satisfied('1.3.0', '1.2.0 - 1.4.0')).toBe(true);
  });

  it('matches a prerelease only where the range names one of the same version', () => {
    expect(satisfied('1.2.0-beta.2', '^1.2.0-beta.1')).toBe(true);
    expect(satisfied('1.2.0-alpha.1', '^1.2.0-beta.1')).toBe(false);
    expect(satisfied('1.3.0-beta.1', '^1.2.0-beta.1')).toBe(false);
    expect(satisfied('1.3.0', '^1.2.0-beta.1')).toBe(true);
    expect(satisfied('2.0.0-rc.1', '>=1.0.0')).toBe(false);
    expect(satisfied('2.0.0-rc.1', '*')).toBe(true);
  });

  it('explains a requirement it does not understand, and a declared version that is not semantic', () => {
    expect(satisfied('1.0.0', 'one point two')).toBe(
      'version "one point two" is not a version requirement (expected an npm range such as 1.2.3, ^1.2.3, ~1.2.3, >=1.2.3 <2, ^1 || ^2 or *)',
    );
    expect(satisfied('1.0', '^1.0.0')).toBe('the plugin declares version "1.0", which is not a semantic version');
  });
});
