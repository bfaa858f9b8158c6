import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('--runtime (OCI runtime of the Docker sandboxes)', () => {
  it('is offered by the four commands that run attempts', async () => {
    for (const command of ['run-task', 'run-agent', 'validate-suite', 'bench-models']) {
      const help = await runCli([command, '--help']);
      const words = help.stdout.replace(/\s+/g, ' ');
      expect(words, command).toMatch(/--runtime OCI runtime of every Docker sandbox, over each task's environment\.runtime: "runsc" runs the agent and the tests under gVisor/);
    }
  });

  it('refuses a malformed runtime name, and a runtime with a backend other than docker', async () => {
    const malformed = await runCli(['run-task', 'task.yaml', '--runtime', 'run sc']);
    expect(malformed.exitCode).not.toBe(0);
    expect(malformed.stderr).toContain('--runtime: expected a container runtime name registered with the Docker engine, such as "runsc" or "runc", found "run sc"');
    const local = await runCli(['run-agent', '--task', 'task.yaml', '--backend', 'local', '--runtime', 'runsc']);
    expect(local.exitCode).not.toBe(0);
    expect(local.stderr).toContain('--runtime runsc: a container runtime applies to the docker backend only, not --backend local');
  });
});
