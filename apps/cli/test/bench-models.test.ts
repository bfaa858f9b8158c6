import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { runCli } from './run-cli.js';

describe('ab bench-models --models FILE', () => {
  it('reads the models file like any input file: /dev/zero is refused at once, by name', async () => {
    const run = await runCli(['bench-models', '--task', 'task.yaml', '--models', '/dev/zero']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('ab: /dev/zero: expected a regular file, found a character device; only regular files are read\n');
  });
});

describe('ab bench-models --help (issue 27, item 4)', () => {
  it('names the run folder bench-models writes (artifacts/runs/, as ab run) and only example files that exist', async () => {
    const run = await runCli(['bench-models', '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('default artifacts/runs/<timestamp>');
    expect(run.stdout).not.toContain('artifacts/bench');
    expect(run.stdout).not.toContain('scripts/models.txt');
    // Every repository path an example names is there (models.txt is the reader's own file).
    const paths = [...run.stdout.matchAll(/\b((?:tasks|scripts|fixtures)\/[\w./-]+)/g)].map((match) => match[1] as string);
    expect(paths.length).toBeGreaterThan(0);
    for (const file of paths) expect(existsSync(path.join(repositoryRoot, file)), file).toBe(true);
  });
});
