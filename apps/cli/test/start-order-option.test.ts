import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// The harness's own tests show what each order does (longest-first-order.test.ts, run-agent-run.test.ts,
// validate-suite-order.test.ts); these show that every command starting many attempts offers the choice.
describe('--order of the commands that start many attempts', () => {
  it.each(['run', 'bench-models', 'validate-suite'])('ab %s --help offers longest-first (the default) and as-listed', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/--order\s+The order attempts start in/);
    expect(run.stdout).toContain('[choices: "longest-first", "as-listed"] [default: "longest-first"]');
  });

  it('refuses another order, naming the choices', async () => {
    const run = await runCli(['validate-suite', 'custom-dev', '--order', 'shortest-first']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('Argument: order, Given: "shortest-first", Choices: "longest-first", "as-listed"');
  });
});
