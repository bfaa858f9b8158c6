import { describe, expect, it } from 'vitest';
import { excludingPathspecs, protectedPathspecs } from './protected-pathspecs.js';

describe('protectedPathspecs', () => {
  it('protects the Python test files by default, and the files of the expected failing tests', () => {
    const pathspecs = protectedPathspecs({ validation: { enforce_clean_setup: true, expected_failing_tests: ['pkg/check_x.py::test_a', 'pkg/check_x.py::test_b'] } });
    expect(pathspecs).toContain(':(glob)tests/**');
    expect(pathspecs).toContain(':(glob)**/conftest.py');
    expect(pathspecs.filter((pathspec) => pathspec === ':(literal)pkg/check_x.py')).toHaveLength(1);
  });

  it('takes the task’s own globs instead of the default', () => {
    expect(protectedPathspecs({ evaluation: { protected_paths: ['spec/**'], allow_test_changes: false } })).toEqual([':(glob)spec/**']);
  });

  it('turns each into an exclusion', () => {
    expect(excludingPathspecs([':(glob)tests/**', ':(literal)a.py'])).toEqual([':(glob,exclude)tests/**', ':(literal,exclude)a.py']);
  });
});
