import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';

// Issue 27, item 8: run outside the project (no tasks/ folder), a suite command says the two ways out.
describe('a suite command where there is no tasks folder', () => {
  const scratch = useTemporaryDirectory({ per: 'block' });

  it.each([
    [['run', '--suite', 'custom-dev']],
    [['validate-suite', 'custom-dev']],
  ])('ab %j suggests --tasks DIR or the project root', async (args) => {
    const result = await runCli(args, { cwd: scratch.path });
    expect(result.exitCode).toBe(1);
    // One line: what is missing (where), then both ways out.
    expect(result.stderr).toMatch(/^ab: unknown suite "custom-dev" in \S*tasks \(the tasks folder does not exist[^)\n]*\): [^\n]+\n$/);
    expect(result.stderr).toContain('the tasks folder does not exist');
    expect(result.stderr).toContain(': name the folder that holds your suites with --tasks DIR, or run ab from the project root (the folder with tasks/)\n');
  });
});
