import { spawnSync } from 'node:child_process';
import { chmod, chown, copyFile, link, lstat, mkdir, mkdtemp, readdir, readFile, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDeepTree, WALK_MODES } from '../../test/helpers/deep-tree.js';
import { measureDiskUse } from './artifact-budget.js';
import { skipUnlessRequired } from '../../../../test-support/skip-unless-required.js';
import { sanitizeManifestPath, sanitizeKeptWorkspace, sanitizeWithSettings, type SanitizeSummary } from './sanitize-kept-workspace.js';

// Real files, made the way a sandbox would leave them in a kept workspace: a setuid copy of
// dash, devices, FIFOs, sockets, links out, hard links to files outside, deep trees.

const isRoot = process.geteuid?.() === 0;
const hasTool = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const nobody = 65534;

let base: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'agentbench-sanitize-'));
  // Reachable by user nobody, for the setuid probe.
  await chmod(base, 0o755);
  workspace = join(base, 'run', 'workspace');
  outside = join(base, 'outside');
  await mkdir(workspace, { recursive: true });
  await chmod(join(base, 'run'), 0o755);
  await chmod(workspace, 0o755);
  await mkdir(outside);
  await writeFile(join(outside, 'victim'), 'host file\n');
});

afterEach(() => {
  spawnSync('chattr', ['-R', '-i', base], { stdio: 'ignore' });
  // GNU rm: the deep trees below are deeper than PATH_MAX.
  spawnSync('rm', ['-rf', base]);
});

function inWorkspace(...parts: string[]): string {
  return join(workspace, ...parts);
}

/** Runs `command` as user nobody with the kept rootshell; `-p` keeps a setuid euid if there is one. */
function idAsNobody(shell: string): string {
  const result = spawnSync('setpriv', [`--reuid=${nobody}`, `--regid=${nobody}`, '--clear-groups', shell, '-p', '-c', 'id -u'], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.trim();
}

async function typeOf(...parts: string[]): Promise<string> {
  try {
    const stats = await lstat(inWorkspace(...parts));
    if (stats.isSymbolicLink()) return `symlink -> ${await readlink(inWorkspace(...parts))}`;
    if (stats.isDirectory()) return 'folder';
    if (stats.isFile()) return 'file';
    return 'special';
  } catch {
    return 'missing';
  }
}

async function modeOf(...parts: string[]): Promise<number> {
  return (await lstat(inWorkspace(...parts))).mode & 0o7777;
}

describe.each(WALK_MODES)('sanitizeKeptWorkspace $name', ({ settings }) => {
  const sanitize = (options = {}): Promise<SanitizeSummary> => sanitizeWithSettings(workspace, options, settings);

  it.skipIf(!isRoot)('strips the setuid bit of a copied shell: user nobody no longer gets root', async () => {
    const shell = inWorkspace('rootshell');
    await copyFile('/bin/dash', shell);
    await chmod(shell, 0o4755);
    // The probe can fail: before, nobody gets euid 0 through it.
    expect(idAsNobody(shell)).toBe('0');

    const summary = await sanitize();

    expect(idAsNobody(shell)).toBe(String(nobody));
    expect(await modeOf('rootshell')).toBe(0o755);
    expect(summary).toMatchObject({ isSafe: true, privilegeBitsStripped: 1, modesStripped: 1 });
    expect(summary.changes).toContainEqual({ path: 'rootshell', action: 'mode_stripped', detail: '04755 -> 0755' });
  });

  it('strips setgid, sticky and group/other write from files and folders, keeps owner access', async () => {
    await mkdir(inWorkspace('shared'));
    await chmod(inWorkspace('shared'), 0o2775);
    await mkdir(inWorkspace('tmp'));
    await chmod(inWorkspace('tmp'), 0o1777);
    await mkdir(inWorkspace('closed'));
    await chmod(inWorkspace('closed'), 0o000);
    await writeFile(inWorkspace('setgid'), 'x');
    await chmod(inWorkspace('setgid'), 0o2755);
    await writeFile(inWorkspace('writable'), 'x');
    await chmod(inWorkspace('writable'), 0o666);
    await writeFile(inWorkspace('plain'), 'x');
    await chmod(inWorkspace('plain'), 0o644);
    await chmod(workspace, 0o3777);

    const summary = await sanitize();

    const expected = { '.': 0o755, shared: 0o755, tmp: 0o755, closed: 0o700, setgid: 0o755, writable: 0o644, plain: 0o644 };
    const found = Object.fromEntries(await Promise.all(Object.keys(expected).map(async (name) => [name, await modeOf(name)] as const)));
    expect(found).toEqual(expected);
    expect(summary.privilegeBitsStripped).toBe(4);
    // The workspace, shared, tmp, setgid, writable ("closed" only gained owner bits).
    expect(summary.modesStripped).toBe(5);
  });

  it.skipIf(!isRoot)('removes device nodes, FIFOs and sockets', async () => {
    const made = spawnSync('sh', ['-c', 'mknod null c 1 3 && mknod loop b 7 0 && mkfifo pipe'], { cwd: workspace, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const socket = spawnSync(process.execPath, ['-e', "require('net').createServer().listen('socket', () => process.exit(0))"], { cwd: workspace });
    expect(socket.status).toBe(0);
    expect((await lstat(inWorkspace('socket'))).isSocket()).toBe(true);
    await writeFile(inWorkspace('kept'), 'x');

    const summary = await sanitize();

    expect((await readdir(workspace)).sort()).toEqual(['kept']);
    expect(summary.specialFilesRemoved).toBe(4);
    expect(summary.changes.filter((change) => change.action === 'special_file_removed').map((change) => `${change.path}: ${change.detail}`).sort()).toEqual([
      'loop: block device',
      'null: character device',
      'pipe: FIFO',
      'socket: socket',
    ]);
  });

  it('removes links that are absolute or lead outside, keeps relative links inside', async () => {
    await mkdir(inWorkspace('sub', 'inner'), { recursive: true });
    await writeFile(inWorkspace('sub', 'file'), 'x');
    const links: Array<[string, string]> = [
      ['etc', '/etc'],
      ['outside-abs', outside],
      ['up', '../../outside'],
      ['sub/deep-up', '../../../outside/victim'],
      ['sub/inner/way-up', '../../..'],
      ['self', '.'],
      ['chain', 'self/..'],
      ['via-etc', 'etc/passwd'],
      ['via-up', 'up/victim'],
      ['loop-a', 'loop-b'],
      ['loop-b', 'loop-a'],
      ['inside', 'sub/file'],
      ['sub/back', '../inside'],
      ['sub/inner/to-top', '../..'],
      ['later', 'not-there-yet'],
    ];
    for (const [path, target] of links) await symlink(target, inWorkspace(...path.split('/')));

    const summary = await sanitize();

    const expected: Record<string, string> = {
      etc: 'missing',
      'outside-abs': 'missing',
      up: 'missing',
      'sub/deep-up': 'missing',
      'sub/inner/way-up': 'missing',
      self: 'symlink -> .',
      chain: 'missing',
      inside: 'symlink -> sub/file',
      'sub/back': 'symlink -> ../inside',
      'sub/inner/to-top': 'symlink -> ../..',
      later: 'symlink -> not-there-yet',
    };
    for (const [path, type] of Object.entries(expected)) expect(`${path}: ${await typeOf(...path.split('/'))}`).toBe(`${path}: ${type}`);
    // A link through a removed one is removed too, or left dangling inside when the other
    // went first (the walk's order): either way it no longer reaches the host.
    for (const path of ['via-etc', 'via-up', 'loop-a', 'loop-b']) {
      const resolved = await realpath(inWorkspace(path)).catch((error: NodeJS.ErrnoException) => error.code);
      // ENOENT: gone, or dangling with nothing left to lead through.
      expect(`${path}: ${resolved}`).toBe(`${path}: ENOENT`);
    }
    expect(summary.symlinksRemoved).toBeGreaterThanOrEqual(7);
    expect(summary.symlinksRemoved).toBeLessThanOrEqual(11);
    expect(summary.symlinks).toBe(15);
    expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('host file\n');
  });

  it.skipIf(!isRoot)('replaces a hard link to a file outside by a private copy and leaves the outside file as it was', async () => {
    const victim = join(outside, 'victim');
    // In this order: chown clears setuid, even as root.
    await chown(victim, 1234, 1234);
    await chmod(victim, 0o4755);
    await link(victim, inWorkspace('hard'));
    // Two names inside for one inode: each ends up with its own.
    await writeFile(inWorkspace('a'), 'shared inside\n');
    await link(inWorkspace('a'), inWorkspace('b'));

    const summary = await sanitize();

    const victimStats = await lstat(victim);
    expect({ mode: victimStats.mode & 0o7777, uid: victimStats.uid, gid: victimStats.gid, nlink: victimStats.nlink }).toEqual({
      mode: 0o4755,
      uid: 1234,
      gid: 1234,
      nlink: 1,
    });
    const hard = await lstat(inWorkspace('hard'));
    expect({ mode: hard.mode & 0o7777, uid: hard.uid, nlink: hard.nlink }).toEqual({ mode: 0o755, uid: 0, nlink: 1 });
    expect(hard.ino).not.toBe(victimStats.ino);
    expect(await readFile(inWorkspace('hard'), 'utf8')).toBe('host file\n');
    expect(await readFile(inWorkspace('b'), 'utf8')).toBe('shared inside\n');
    expect((await lstat(inWorkspace('a'))).ino).not.toBe((await lstat(inWorkspace('b'))).ino);
    expect(summary.hardLinksCopied).toBe(2);
    expect((await readdir(workspace)).sort()).toEqual(['a', 'b', 'hard']);
  });

  it.skipIf(!isRoot)('gives everything a bwrap sandbox left (uid 65534) to the host user', async () => {
    await mkdir(inWorkspace('dir'));
    await writeFile(inWorkspace('dir', 'file'), 'x');
    await symlink('dir/file', inWorkspace('link'));
    for (const path of [workspace, inWorkspace('dir'), inWorkspace('dir', 'file')]) await chown(path, nobody, nobody);
    spawnSync('chown', ['-h', `${nobody}:${nobody}`, inWorkspace('link')]);

    const summary = await sanitize();

    for (const path of [workspace, inWorkspace('dir'), inWorkspace('dir', 'file'), inWorkspace('link')]) {
      const stats = await lstat(path);
      expect(`${path}: ${stats.uid}:${stats.gid}`).toBe(`${path}: 0:0`);
    }
    expect(summary.ownersChanged).toBe(4);
  });

  it.skipIf(!isRoot || !hasTool('setcap'))('clears file capabilities', async () => {
    const shell = inWorkspace('capable');
    await copyFile('/bin/dash', shell);
    const set = spawnSync('setcap', ['cap_setuid+ep', shell], { encoding: 'utf8' });
    expect(set.status, set.stderr).toBe(0);
    expect(spawnSync('getcap', [shell], { encoding: 'utf8' }).stdout).toContain('cap_setuid');

    await sanitize();

    expect(spawnSync('getcap', [shell], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  // Plain paths cannot reach below PATH_MAX: that case is /proc's alone.
  it('removes folders deeper than maxDepth whole, even deeper than PATH_MAX with /proc', async () => {
    makeDeepTree(workspace, settings.useProcFileDescriptors ? 3000 : 300, 'bottom');
    const summary = await sanitize({ maxDepth: 10 });
    const levels = Array.from({ length: 10 }, () => 'd');
    expect(await typeOf(...levels)).toBe('folder');
    expect(await readdir(inWorkspace(...levels))).toEqual([]);
    expect(summary).toMatchObject({ isSafe: true, tooDeepRemoved: 1, directories: 11 });
    expect(summary.changes).toContainEqual({ path: [...levels, 'd'].join('/'), action: 'too_deep_removed', detail: 'deeper than 10 levels' });
  }, 300_000); // 3000 levels made and removed: over a minute on two loaded cores (seen in a CI run beside a benchmark)

  it('walks a deep tree within maxDepth and a wide folder', async () => {
    makeDeepTree(workspace, 200, 'bottom');
    await mkdir(inWorkspace('wide'));
    for (let index = 0; index < 2000; index++) await writeFile(inWorkspace('wide', `file-${index}`), '');
    await chmod(inWorkspace('wide', 'file-1999'), 0o4755);
    const summary = await sanitize();
    expect(summary).toMatchObject({ isSafe: true, directories: 201, files: 2001, tooDeepRemoved: 0, privilegeBitsStripped: 1 });
  }, 300_000); // 200 levels and 2,000 files made and walked: over a minute at a load of 24 (seen beside six builds)

  it.skipIf(!isRoot)('is not safe when an entry can be neither fixed nor removed', async (context) => {
    await writeFile(inWorkspace('stuck'), 'x');
    await chmod(inWorkspace('stuck'), 0o4755);
    const immutable = hasTool('chattr') ? spawnSync('chattr', ['+i', inWorkspace('stuck')], { encoding: 'utf8' }) : undefined;
    const cannotPin =
      immutable === undefined ? 'chattr is not installed (e2fsprogs)' : immutable.status !== 0 ? `chattr +i failed, a file system without the immutable attribute? (${immutable.stderr.trim()})` : undefined;
    if (skipUnlessRequired('sanitize-kept-workspace.test.ts', cannotPin, 'AGENTBENCH_REQUIRE_TOOLS') !== undefined) return context.skip(cannotPin);
    const summary = await sanitize();
    expect(summary).toMatchObject({ isSafe: false, failures: 1 });
    expect(summary.changes).toContainEqual(expect.objectContaining({ path: 'stuck', action: 'failed' }));
  });
});

describe('sanitizeKeptWorkspace', () => {
  it('writes its summary beside the workspace, with a capped list of changes', async () => {
    for (let index = 0; index < 12; index++) {
      await writeFile(inWorkspace(`tool-${index}`), 'x');
      await chmod(inWorkspace(`tool-${index}`), 0o4755);
    }
    const summary = await sanitizeKeptWorkspace(workspace, { maxListedChanges: 5 });
    expect(summary.manifestPath).toBe(join(base, 'run', 'workspace.sanitized.json'));
    expect(sanitizeManifestPath(workspace)).toBe(summary.manifestPath);
    expect(summary.changes).toHaveLength(5);
    expect(summary.changesNotListed).toBe(7);
    const manifest = JSON.parse(await readFile(summary.manifestPath as string, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ workspace, is_safe: true, files: 12, modes_stripped: 12, privilege_bits_stripped: 12, changes_not_listed: 7 });
    expect(manifest['changes']).toHaveLength(5);
    expect(await readdir(join(base, 'run'))).toEqual(['workspace', 'workspace.sanitized.json']);
  });

  it('measures what it keeps as a walk of the result would, so keeping it under a budget needs no second walk', async () => {
    await mkdir(inWorkspace('sub', 'deeper'), { recursive: true });
    await writeFile(inWorkspace('sub', 'deeper', 'data'), Buffer.alloc(300_000, 1));
    await writeFile(join(outside, 'shared'), Buffer.alloc(200_000, 2));
    // Hard-linked to a file outside: replaced by a private copy, which is what stays.
    await link(join(outside, 'shared'), inWorkspace('sub', 'shared'));
    await symlink('deeper/data', inWorkspace('sub', 'inside'));
    await symlink('/etc/passwd', inWorkspace('out'));
    spawnSync('mkfifo', [inWorkspace('pipe')]);
    const summary = await sanitizeKeptWorkspace(workspace, { manifestPath: false });
    expect(summary).toMatchObject({ isSafe: true, hardLinksCopied: 1, symlinksRemoved: 1, deepestLevel: 3 });
    const walked = await measureDiskUse(workspace);
    expect(walked.isComplete).toBe(true);
    expect(summary.bytes).toBe(walked.bytes);
    expect(summary.bytes).toBeGreaterThanOrEqual(500_000);
  });

  it('writes no summary when asked not to', async () => {
    const summary = await sanitizeKeptWorkspace(workspace, { manifestPath: false });
    expect(summary.manifestPath).toBeUndefined();
    expect(await readdir(join(base, 'run'))).toEqual(['workspace']);
  });

  it('refuses a workspace that is a symbolic link, and touches nothing behind it', async () => {
    const linked = join(base, 'run', 'linked');
    await symlink(outside, linked);
    await chmod(join(outside, 'victim'), 0o4755);
    await expect(sanitizeKeptWorkspace(linked)).rejects.toThrow(/not a folder \(it is a symbolic link\)/);
    expect((await lstat(join(outside, 'victim'))).mode & 0o7777).toBe(0o4755);
  });
});
