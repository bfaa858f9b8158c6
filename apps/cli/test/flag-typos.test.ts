import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// Issue 27, item 7: a mistyped flag names the nearest flag of the command and that command's --help.
describe('a flag typo', () => {
  it('suggests the nearest flag of the command and points to its own --help', async () => {
    const result = await runCli(['run', '--suit', 'custom-dev']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('ab: unknown argument: --suit (did you mean --suite?)\nRun `ab run --help` for usage.\n');
  });

  it('never shows the camel-case twin yargs adds', async () => {
    const result = await runCli(['validate-suite', 'custom-dev', '--oracle-run', '3']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toContain('oracleRun');
    expect(result.stderr).toBe('ab: unknown argument: --oracle-run (did you mean --oracle-runs?)\nRun `ab validate-suite --help` for usage.\n');
  });

  it('works the same in a subcommand, and with no flag near enough says only what is unknown', async () => {
    const typo = await runCli(['scenario', 'matrix', 'm.matrix.yaml', '--paralel', '2']);
    expect(typo.stderr).toBe('ab: unknown argument: --paralel (did you mean --parallel?)\nRun `ab scenario matrix --help` for usage.\n');
    const unrelated = await runCli(['run', '--suite', 'custom-dev', '--oracle-runs', '3', '--zzzzzz']);
    expect(unrelated.stderr).toBe('ab: unknown arguments: --oracle-runs, --zzzzzz\nRun `ab run --help` for usage.\n');
  });

  it('points a command\'s own usage mistakes to that command\'s --help', async () => {
    const result = await runCli(['run']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Run `ab run --help` for usage.');
  });
});
