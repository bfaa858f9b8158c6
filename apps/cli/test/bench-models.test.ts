import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('ab bench-models --models FILE', () => {
  it('reads the models file like any input file: /dev/zero is refused at once, by name', async () => {
    const run = await runCli(['bench-models', '--task', 'task.yaml', '--models', '/dev/zero']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('ab: /dev/zero: expected a regular file, found a character device; only regular files are read\n');
  });
});
