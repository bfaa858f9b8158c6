import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitRepository, git } from '../../test/helpers/git-repository.js';
import { GIT_VECTORS, type GitVector } from '../../test/probes/git-vectors.js';
import { WorkTreeSnapshots } from './work-tree-snapshots.js';

describe('WorkTreeSnapshots (host git over a sandbox-written work tree)', () => {
  let scratch: string;
  let source: string;
  let workTree: string;
  let commitSha: string;
  let marker: string;

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'snapshots-'));
    source = path.join(scratch, 'source');
    [commitSha] = createGitRepository(source, [{ message: 'initial', files: { 'src/app.py': 'x = 1\n', 'tests/test_app.py': 'def test_x(): pass\n', 'README': 'hello\n' } }]) as [string];
    workTree = path.join(scratch, 'workspace', 'repo');
    await mkdir(path.dirname(workTree), { recursive: true });
    git(scratch, ['clone', '--quiet', source, workTree]);
    marker = path.join(scratch, 'host-marker');
  });

  afterEach(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  const create = (): Promise<WorkTreeSnapshots> =>
    WorkTreeSnapshots.create({ gitDir: path.join(scratch, 'host-git'), sourceGitDir: path.join(source, '.git'), commitSha, workTree });

  function markers(): string[] {
    return readdirSync(scratch).filter((name) => name.startsWith('host-marker'));
  }

  it('records the changes of the work tree as a diff between two snapshots', async () => {
    const snapshots = await create();
    const before = await snapshots.snapshot();
    await writeFile(path.join(workTree, 'src/app.py'), 'x = 2\n');
    await writeFile(path.join(workTree, 'new.txt'), 'new\n');
    await rm(path.join(workTree, 'README'));
    const after = await snapshots.snapshot();
    expect(await snapshots.changedPaths(before.tree, after.tree)).toEqual([
      { status: 'D', path: 'README' },
      { status: 'A', path: 'new.txt' },
      { status: 'M', path: 'src/app.py' },
    ]);
    expect(await snapshots.changedPaths(commitSha, before.tree)).toEqual([]);
    const diff = (await snapshots.diff(before.tree, after.tree, [':(glob,exclude)README'])).toString('utf8');
    expect(diff).toContain('+x = 2');
    expect(diff).toContain('new.txt');
    expect(diff).not.toContain('README');
  });

  it('snapshots and lists the paths changed since a commit in one step, as changedPaths over the written tree does', async () => {
    const snapshots = await create();
    expect(await snapshots.snapshotComparedWith(commitSha)).toEqual({ snapshot: await snapshots.snapshot(), changed: [] });
    await writeFile(path.join(workTree, 'src/app.py'), 'x = 2\n');
    await writeFile(path.join(workTree, 'tests/test_app.py'), 'def test_x(): assert False\n');
    await writeFile(path.join(workTree, 'new.txt'), 'new\n');
    await rm(path.join(workTree, 'README'));
    const pathspecs = [':(glob,exclude)tests/**'];
    const { snapshot, changed } = await snapshots.snapshotComparedWith(commitSha, pathspecs);
    expect(changed).toEqual([
      { status: 'D', path: 'README' },
      { status: 'A', path: 'new.txt' },
      { status: 'M', path: 'src/app.py' },
    ]);
    expect(changed).toEqual(await snapshots.changedPaths(commitSha, snapshot.tree, pathspecs));
    expect(snapshot.tree).toBe((await snapshots.snapshot()).tree);
  });

  it('plain host git in the same work tree runs a planted fsmonitor (the danger this class removes)', async () => {
    const fsmonitor = GIT_VECTORS.find((vector) => vector.name === 'core.fsmonitor') as GitVector;
    execFileSync('sh', ['-c', `MARKER='${marker}'; export MARKER; ${fsmonitor.plant}`], { cwd: workTree, stdio: 'ignore' });
    execFileSync('sh', ['-c', `git -C '${workTree}' status --porcelain >/dev/null 2>&1 || true`], { env: { PATH: process.env['PATH'] ?? '', HOME: scratch } });
    expect(markers().length).toBeGreaterThan(0);
  });

  it.each(GIT_VECTORS.map((vector) => [vector.name, vector.plant]))('never runs what the sandbox planted: %s', async (_name, plant) => {
    const snapshots = await create();
    const before = await snapshots.snapshot();
    execFileSync('sh', ['-c', `MARKER='${marker}'; export MARKER; ${plant}`], { cwd: workTree, stdio: 'ignore' });
    await writeFile(path.join(workTree, 'src/app.py'), 'x = 3\n');
    const after = await snapshots.snapshot();
    await snapshots.changedPaths(before.tree, after.tree);
    const diff = (await snapshots.diff(before.tree, after.tree)).toString('utf8');
    expect(diff).toContain('+x = 3');
    expect(markers()).toEqual([]);
  });

  it('refuses a work tree replaced by a link, and never reads through it', async () => {
    const snapshots = await create();
    await rm(workTree, { recursive: true, force: true });
    await symlink('/etc', workTree);
    await expect(snapshots.snapshot()).rejects.toThrow(/no longer a folder/);
  });

  it('stores links as links: a link to a host file adds the link, not the file', async () => {
    const snapshots = await create();
    const before = await snapshots.snapshot();
    await symlink('/etc/passwd', path.join(workTree, 'passwd'));
    const after = await snapshots.snapshot();
    const diff = (await snapshots.diff(before.tree, after.tree)).toString('utf8');
    expect(diff).toContain('new file mode 120000');
    expect(diff).not.toContain('root:');
  });

  it('leaves files over the size limit out of the snapshot and names them', async () => {
    const snapshots = await create();
    const big = path.join(workTree, 'big.bin');
    execFileSync('truncate', ['-s', `${51 * 1024 * 1024}`, big]);
    const snapshot = await snapshots.snapshot();
    expect(snapshot.skippedLargeFiles).toEqual(['big.bin']);
    expect(await snapshots.changedPaths(commitSha, snapshot.tree)).toEqual([]);
  });

  it('looks for large files without following a link to a folder outside the work tree', async () => {
    const snapshots = await create();
    const outside = path.join(scratch, 'outside');
    await mkdir(outside, { recursive: true });
    execFileSync('truncate', ['-s', `${51 * 1024 * 1024}`, path.join(outside, 'host-big.bin')]);
    await symlink(outside, path.join(workTree, 'linked'));
    const snapshot = await snapshots.snapshot();
    expect(snapshot.skippedLargeFiles).toEqual([]);
    const diff = (await snapshots.diff(commitSha, snapshot.tree)).toString('utf8');
    expect(diff).toContain('new file mode 120000');
    expect(diff).not.toContain('host-big.bin');
  });

  it('keeps its git directory outside the work tree and removes it', async () => {
    const snapshots = await create();
    await snapshots.snapshot();
    expect(await readFile(path.join(scratch, 'host-git', 'objects', 'info', 'alternates'), 'utf8')).toContain(path.join(source, '.git', 'objects'));
    await snapshots.remove();
    expect(existsSync(path.join(scratch, 'host-git'))).toBe(false);
  });
});
