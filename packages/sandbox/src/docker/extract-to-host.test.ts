import { spawnSync } from 'node:child_process';
import { chmod, link, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractTarToHost } from './extract-to-host.js';

// Archives are sandbox-written: these are crafted by hand, header by header (not with our
// own writer), the way a hostile container could shape what `getArchive` returns.

interface CraftedEntry {
  name: string;
  /** ustar type flag: 0 file, 1 hard link, 2 symlink, 3 char device, 4 block device, 5 folder, 6 FIFO. */
  type: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  mode?: number;
  linkName?: string;
  body?: string;
}

function craftedHeader(entry: CraftedEntry): Buffer {
  const header = Buffer.alloc(512);
  const body = Buffer.from(entry.body ?? '');
  header.write(entry.name, 0, 100, 'utf8');
  header.write(`${(entry.mode ?? (entry.type === '5' ? 0o755 : 0o644)).toString(8).padStart(7, '0')}\0`, 100, 8, 'ascii');
  header.write('0000000\0', 108, 8, 'ascii');
  header.write('0000000\0', 116, 8, 'ascii');
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  header.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136, 12, 'ascii');
  header.write(entry.type, 156, 1, 'ascii');
  header.write(entry.linkName ?? '', 157, 100, 'utf8');
  header.write('ustar\u000000', 257, 8, 'ascii');
  header.fill(0x20, 148, 156);
  let checksum = 0;
  for (const byte of header) checksum += byte;
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  const padding = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, padding]);
}

function craftedArchive(entries: CraftedEntry[]): Readable {
  return Readable.from([Buffer.concat([...entries.map(craftedHeader), Buffer.alloc(1024)])]);
}

const file = (name: string, body = 'from the sandbox\n', mode?: number): CraftedEntry => ({ name, type: '0', body, ...(mode === undefined ? {} : { mode }) });
const folder = (name: string, mode?: number): CraftedEntry => ({ name, type: '5', ...(mode === undefined ? {} : { mode }) });
const symbolic = (name: string, linkName: string): CraftedEntry => ({ name, type: '2', linkName });
const hard = (name: string, linkName: string): CraftedEntry => ({ name, type: '1', linkName });

let base: string;
/** A folder beside the destination that nothing may touch; holds `victim` ("original"). */
let outside: string;
/** Where the archive's top entry `root` lands. */
let destination: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'agentbench-extract-'));
  outside = join(base, 'outside');
  destination = join(base, 'destination', 'root');
  await mkdir(outside);
  await writeFile(join(outside, 'victim'), 'original\n');
  await chmod(join(outside, 'victim'), 0o644);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function extract(entries: CraftedEntry[]): Promise<number> {
  return extractTarToHost(craftedArchive(entries), { archiveRoot: 'root', hostPath: destination });
}

async function expectOutsideUntouched(): Promise<void> {
  expect((await readdir(outside)).sort()).toEqual(['victim']);
  expect(await readFile(join(outside, 'victim'), 'utf8')).toBe('original\n');
  expect((await lstat(join(outside, 'victim'))).mode & 0o7777).toBe(0o644);
  expect((await lstat(join(outside, 'victim'))).nlink).toBe(1);
  expect((await readdir(base)).filter((name) => name !== 'destination')).toEqual(['outside']);
}

async function typeOf(relativePath: string): Promise<string> {
  try {
    const stats = await lstat(join(destination, relativePath));
    if (stats.isSymbolicLink()) return `symlink -> ${await readlink(join(destination, relativePath))}`;
    if (stats.isDirectory()) return 'folder';
    if (stats.isFile()) return 'file';
    return 'special';
  } catch {
    return 'missing';
  }
}

async function modeOf(relativePath: string): Promise<number> {
  return (await lstat(join(destination, relativePath))).mode & 0o7777;
}

describe('extractTarToHost: hostile entries', () => {
  const refused: Array<{ name: string; entries: () => CraftedEntry[] }> = [
    { name: 'a name with .. above the top entry', entries: () => [folder('root'), file('root/../../outside/pwned')] },
    { name: 'a name with .. inside the path', entries: () => [folder('root'), file('root/a/../../outside/pwned')] },
    { name: 'an absolute name', entries: () => [folder('root'), file(`${outside}/pwned`)] },
    { name: 'a name outside the top entry', entries: () => [folder('root'), file('other/pwned')] },
    { name: 'a hard link to an absolute path', entries: () => [folder('root'), hard('root/h', join(outside, 'victim'))] },
    { name: 'a hard link climbing out with ..', entries: () => [folder('root'), hard('root/h', 'root/../../outside/victim')] },
  ];
  it.each(refused)('refuses $name and writes nothing outside', async ({ entries }) => {
    await expect(extract(entries())).rejects.toThrow(/unexpected archive entry/);
    await expectOutsideUntouched();
  });

  const contained: Array<{ name: string; entries: () => CraftedEntry[]; expected: Record<string, string> }> = [
    {
      name: 'a symlink to an absolute folder, then a file through it',
      entries: () => [folder('root'), symbolic('root/a', outside), file('root/a/pwned')],
      expected: { a: 'folder', 'a/pwned': 'file' },
    },
    {
      name: 'a symlink to .., then a file through it',
      entries: () => [folder('root'), symbolic('root/a', '..'), file('root/a/pwned')],
      expected: { a: 'folder', 'a/pwned': 'file' },
    },
    {
      name: 'a symlink to ../.., then a folder and a file through it',
      entries: () => [folder('root'), symbolic('root/a', '../../outside'), folder('root/a/b'), file('root/a/b/pwned')],
      expected: { a: 'folder', 'a/b/pwned': 'file' },
    },
    {
      name: 'a symlink then a folder of the same name (the folder wins)',
      entries: () => [folder('root'), symbolic('root/a', outside), folder('root/a')],
      expected: { a: 'folder' },
    },
    {
      name: 'a symlink then a symlink below it',
      entries: () => [folder('root'), symbolic('root/a', outside), symbolic('root/a/pwned', 'x')],
      expected: { a: 'folder', 'a/pwned': 'symlink -> x' },
    },
    {
      name: 'a hard link through a symlink of the archive',
      entries: () => [folder('root'), symbolic('root/d', '../../outside'), hard('root/h', 'root/d/victim')],
      expected: { d: 'missing', h: 'missing' },
    },
    {
      name: 'a hard link to a folder',
      entries: () => [folder('root'), folder('root/sub'), hard('root/h', 'root/sub')],
      expected: { sub: 'folder', h: 'missing' },
    },
    {
      name: 'a hard link to a file of the archive (kept, inside)',
      entries: () => [folder('root'), file('root/f', 'shared\n'), hard('root/h', 'root/f')],
      expected: { f: 'file', h: 'file' },
    },
    {
      name: 'devices and FIFOs (skipped)',
      entries: () => [
        folder('root'),
        { name: 'root/null', type: '3', mode: 0o666 },
        { name: 'root/disk', type: '4', mode: 0o660 },
        { name: 'root/pipe', type: '6', mode: 0o644 },
        file('root/after', 'still read\n'),
      ],
      expected: { null: 'missing', disk: 'missing', pipe: 'missing', after: 'file' },
    },
    {
      name: 'symlinks that leave: absolute, .. above the top, a chain through another link, a loop',
      entries: () => [
        folder('root'),
        folder('root/sub'),
        symbolic('root/etc', '/etc'),
        symbolic('root/up', '../outside/victim'),
        symbolic('root/sub/up', '../../outside'),
        symbolic('root/self', '.'),
        symbolic('root/chain', 'self/..'),
        symbolic('root/via', 'etc/passwd'),
        symbolic('root/loop-a', 'loop-b'),
        symbolic('root/loop-b', 'loop-a'),
      ],
      expected: {
        etc: 'missing',
        up: 'missing',
        'sub/up': 'missing',
        self: 'symlink -> .',
        chain: 'missing',
        via: 'missing',
        'loop-a': 'missing',
        'loop-b': 'missing',
      },
    },
    {
      name: 'symlinks that stay inside (kept as they are)',
      entries: () => [
        folder('root'),
        folder('root/node_modules'),
        folder('root/node_modules/.bin'),
        folder('root/node_modules/pkg'),
        file('root/node_modules/pkg/cli.js', '#!/usr/bin/env node\n', 0o755),
        symbolic('root/node_modules/.bin/pkg', '../pkg/cli.js'),
        symbolic('root/dangling', 'not-there-yet'),
        symbolic('root/inside-up', 'node_modules/../node_modules/pkg'),
      ],
      expected: {
        'node_modules/.bin/pkg': 'symlink -> ../pkg/cli.js',
        dangling: 'symlink -> not-there-yet',
        'inside-up': 'symlink -> node_modules/../node_modules/pkg',
      },
    },
  ];
  it.each(contained)('keeps $name inside the destination', async ({ entries, expected }) => {
    await extract(entries());
    await expectOutsideUntouched();
    for (const [path, type] of Object.entries(expected)) expect(`${path}: ${await typeOf(path)}`).toBe(`${path}: ${type}`);
  });

  it('drops a top entry that is a symlink', async () => {
    await extract([symbolic('root', outside)]);
    expect(await typeOf('.')).toBe('missing');
    await expectOutsideUntouched();
  });

  it('strips setuid, setgid, sticky and group/other write from every mode', async () => {
    await extract([
      folder('root', 0o1777),
      file('root/rootshell', '#!/bin/sh\n', 0o4755),
      file('root/setgid', '#!/bin/sh\n', 0o2755),
      file('root/writable', 'x', 0o666),
      file('root/unreadable', 'x', 0o000),
      folder('root/shared', 0o2775),
      folder('root/closed', 0o000),
    ]);
    expect(await modeOf('.')).toBe(0o755);
    expect(await modeOf('rootshell')).toBe(0o755);
    expect(await modeOf('setgid')).toBe(0o755);
    expect(await modeOf('writable')).toBe(0o644);
    expect(await modeOf('unreadable')).toBe(0o600);
    expect(await modeOf('shared')).toBe(0o755);
    expect(await modeOf('closed')).toBe(0o700);
  });
});

describe('extractTarToHost: a destination that already holds links', () => {
  it('replaces a symlink in the way instead of writing through it', async () => {
    await mkdir(destination, { recursive: true });
    await symlink(outside, join(destination, 'a'));
    await symlink(join(outside, 'victim'), join(destination, 'file'));
    await extract([folder('root'), file('root/a/pwned'), file('root/file', 'new\n')]);
    expect(await typeOf('a')).toBe('folder');
    expect(await readFile(join(destination, 'file'), 'utf8')).toBe('new\n');
    await expectOutsideUntouched();
  });

  it('never writes through an old hard link to a file outside', async () => {
    await mkdir(destination, { recursive: true });
    await link(join(outside, 'victim'), join(destination, 'file'));
    await extract([folder('root'), file('root/file', 'new\n')]);
    expect(await readFile(join(destination, 'file'), 'utf8')).toBe('new\n');
    expect((await lstat(join(destination, 'file'))).nlink).toBe(1);
    await expectOutsideUntouched();
  });

  it('does not hard-link through a symlink already there', async () => {
    await mkdir(destination, { recursive: true });
    await symlink(outside, join(destination, 'd'));
    await extract([folder('root'), hard('root/h', 'root/d/victim')]);
    expect(await typeOf('h')).toBe('missing');
    await expectOutsideUntouched();
  });

  it('a second archive cannot use a link the first one left', async () => {
    await extract([folder('root'), folder('root/sub'), symbolic('root/sub/up', '..')]);
    expect(await typeOf('sub/up')).toBe('symlink -> ..');
    await extract([folder('root'), symbolic('root/sub/up', '../..'), file('root/sub/up/pwned')]);
    expect(await typeOf('sub/up')).toBe('folder');
    expect(await typeOf('sub/up/pwned')).toBe('file');
    await expectOutsideUntouched();
  });
});

const isRoot = process.getuid?.() === 0;
const hasTar = spawnSync('tar', ['--version']).status === 0;

describe.skipIf(!isRoot || !hasTar)('extractTarToHost: an archive GNU tar made of real special files', () => {
  it('lands no device, FIFO or setuid file', async () => {
    const source = join(base, 'source');
    await mkdir(join(source, 'root'), { recursive: true });
    const made = spawnSync(
      'sh',
      ['-c', 'cp /bin/sh root/rootshell && chmod 4755 root/rootshell && mknod root/null c 1 3 && mkfifo root/pipe && mkdir root/shared && chmod 2777 root/shared && ln -s /etc root/etc'],
      { cwd: source, encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const archive = spawnSync('tar', ['--format=pax', '-cf', '-', '-C', source, 'root'], { maxBuffer: 64 * 1024 * 1024 });
    expect(archive.status, archive.stderr.toString()).toBe(0);
    await extractTarToHost(Readable.from([archive.stdout]), { archiveRoot: 'root', hostPath: destination });
    expect((await readdir(destination)).sort()).toEqual(['rootshell', 'shared']);
    expect(await modeOf('rootshell')).toBe(0o755);
    expect(await modeOf('shared')).toBe(0o755);
  });
});
