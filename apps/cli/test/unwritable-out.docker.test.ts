import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { skipUnlessRequired } from '../../../test-support/skip-unless-required.js';
import { runAgentCli } from './run-agent-cli.js';
import { useScratchRepository } from './scratch-repository.js';

/** Unique to this file, so its leftover check never touches another test's containers. */
const TASK_ID = 'cli_unwritable_out';
const TEN_MEGABYTES = "head -c 10000000 /dev/zero | tr '\\0' a; exit 1";

// Root ignores permission bits, and only root mounts: a tiny or read-only file system needs root (CI runs as root).
const notRoot = process.getuid?.() === 0 ? undefined : 'not root: mounting a 100 KB tmpfs and a read-only bind mount needs root';
const skipReason = dockerSkipReason('unwritable-out.docker.test.ts') ?? skipUnlessRequired('unwritable-out.docker.test.ts', notRoot, 'AGENTBENCH_REQUIRE_ROOT');

type Place = 'read-only' | 'full (100 KB)' | 'nearly full (2 MB, the test prints 10 MB)';
const CAUSE: Record<Place, RegExp> = {
  'read-only': /read-only file system/,
  'full (100 KB)': /no space left on device/,
  'nearly full (2 MB, the test prints 10 MB)': /no space left on device/,
};

const COMMANDS: ReadonlyArray<{ name: string; args: (tasks: string, out: string) => string[] }> = [
  { name: 'run-task', args: (tasks, out) => ['run-task', path.join(tasks, 'unwritable', TASK_ID, 'task.yaml'), '--out', out] },
  { name: 'validate-suite', args: (tasks, out) => ['validate-suite', 'unwritable', '--tasks', tasks, '--out', out, '-j', '1'] },
  { name: 'run-agent', args: (tasks, out) => ['run-agent', '--task', path.join(tasks, 'unwritable', TASK_ID, 'task.yaml'), '--variant', 'scripted', '--out', out] },
  // ab run's own files (run.json, run.lock, attempts.jsonl, each try's folder) besides the attempt's.
  { name: 'run', args: (tasks, out) => ['run', '--task', path.join(tasks, 'unwritable', TASK_ID, 'task.yaml'), '--variant', 'scripted', '-j', '1', '--out', out] },
];

async function filesUnder(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== 'workspace') found.push(...(await filesUnder(entryPath)));
    else if (entry.isFile()) found.push(entryPath);
  }
  return found;
}

describe.skipIf(skipReason !== undefined)('--out on a read-only or full file system: one or two lines, exit 1 (real Docker)', () => {
  const fixture = useScratchRepository(TASK_ID);
  const mounted: string[] = [];

  afterAll(() => {
    for (const target of mounted.reverse()) execFileSync('umount', ['-l', target], { stdio: 'pipe' });
  });

  async function writeTask(name: string, command: string): Promise<string> {
    const tasks = path.join(fixture.scratch.path, `tasks-${name}`);
    await mkdir(path.join(tasks, 'unwritable', TASK_ID), { recursive: true });
    await writeFile(
      path.join(tasks, 'unwritable', TASK_ID, 'task.yaml'),
      [
        'task_spec_version: "1.0"',
        `id: ${TASK_ID}`,
        'suite: unwritable',
        'repo:',
        `  url: ${fixture.repository}`,
        `  commit: ${fixture.sha}`,
        'environment:',
        '  docker_image: agentbench/py-runner:0.1.0',
        '  workdir: /workspace',
        '  timeout_sec: 300',
        'run:',
        `  command: ${JSON.stringify(command)}`,
        'agent:',
        '  entrypoint: scripted',
        `  script: ${JSON.stringify([{ tool: 'run', args: { command: 'echo hello' } }])}`,
        '',
      ].join('\n'),
    );
    return tasks;
  }

  async function mountPlace(name: string, place: Place): Promise<string> {
    const target = path.join(fixture.scratch.path, `out-${name}`);
    await mkdir(target, { recursive: true });
    if (place === 'read-only') {
      const source = path.join(fixture.scratch.path, `source-${name}`);
      await mkdir(source, { recursive: true });
      execFileSync('mount', ['--bind', source, target], { stdio: 'pipe' });
      mounted.push(target);
      execFileSync('mount', ['-o', 'remount,bind,ro', target], { stdio: 'pipe' });
    } else {
      execFileSync('mount', ['-t', 'tmpfs', '-o', place === 'full (100 KB)' ? 'size=100k' : 'size=2m', 'tmpfs', target], { stdio: 'pipe' });
      mounted.push(target);
    }
    return target;
  }

  const cases = COMMANDS.flatMap((command) => (['read-only', 'full (100 KB)', 'nearly full (2 MB, the test prints 10 MB)'] as const).map((place) => [command.name, place, command] as const));

  it.each(cases)('ab %s with --out %s', async (name, place, command) => {
    const slug = `${name}-${place.split(' ')[0]}`;
    const tasks = await writeTask(slug, place.startsWith('nearly') ? TEN_MEGABYTES : 'exit 1');
    const out = await mountPlace(slug, place);
    const previousCi = process.env['CI'];
    process.env['CI'] = '1';
    let run;
    try {
      run = await runAgentCli(command.args(tasks, out));
    } finally {
      if (previousCi === undefined) delete process.env['CI'];
      else process.env['CI'] = previousCi;
    }
    const printed = `${run.stdout}${run.stderr}`;
    expect(run.exitCode, printed).toBe(1);
    expect(printed).not.toContain('internal error');
    expect(printed).not.toMatch(/^\s+at /m);
    expect(printed).not.toContain('interrupted');
    // Which path, and why: under --out, with the cause in words.
    const line = printed.split('\n').find((text) => text.includes('could not write'));
    expect(line, printed).toBeDefined();
    expect(line).toContain(out);
    expect(line).toMatch(CAUSE[place]);

    // Whatever was written is whole: each record file parses line by line, run.json is not left "running" unless the message says so.
    for (const file of await filesUnder(out)) {
      if (file.endsWith('.jsonl')) {
        const text = await readFile(file, 'utf8');
        expect(text === '' || text.endsWith('\n'), `${file} ends in a partial line`).toBe(true);
        for (const recordLine of text.split('\n').filter(Boolean)) expect(() => JSON.parse(recordLine)).not.toThrow();
      }
      if (path.basename(file) === 'run.json') {
        const run = JSON.parse(await readFile(file, 'utf8')) as { status: string };
        if (run.status === 'running') expect(printed).toContain('still says "running"');
      }
      expect(path.basename(file)).not.toMatch(/\.tmp-/);
    }
    // With 2 MB free and 10 MB printed (the log is capped), run-task still keeps its record.
    if (name === 'run-task' && place.startsWith('nearly')) {
      const records = (await filesUnder(out)).filter((file) => path.basename(file) === 'attempts.jsonl');
      expect(records).toHaveLength(1);
      expect((await readFile(records[0] as string, 'utf8')).trim().split('\n')).toHaveLength(1);
    }
  }, 600_000);
});
