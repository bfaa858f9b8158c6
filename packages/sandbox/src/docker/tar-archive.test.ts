import { spawnSync } from 'node:child_process';
import { chmod, link, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractTarToHost } from './extract-to-host.js';
import { packTar, readTar, type TarEntryHeader, type TarPart } from './tar-archive.js';

function tarHostPath(hostPath: string, rootName: string): AsyncIterable<Buffer> {
  return packTar([{ hostPath, rootName }]);
}

function tarFiles(files: Array<{ path: string; data: Buffer; mode?: number }>, owner?: { uid: number; gid: number }): AsyncIterable<Buffer> {
  const parts: TarPart[] = [{ files }];
  return owner === undefined ? packTar(parts) : packTar(parts, owner);
}

/** Rewrites a header field of the first entry and its checksum, as a hostile archive could. */
function withHeaderField(archive: Buffer, offset: number, value: Buffer): Buffer {
  const copy = Buffer.from(archive);
  value.copy(copy, offset);
  copy.fill(0x20, 148, 156);
  let checksum = 0;
  for (let index = 0; index < 512; index++) checksum += copy[index]!;
  copy.write(`${checksum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return copy;
}

const hasTar = spawnSync('tar', ['--version']).status === 0;
const longName = `${'a-rather-long-folder-name/'.repeat(6)}${'and-a-long-file-name-'.repeat(4)}.txt`;

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

async function entriesOf(archive: Buffer, chunkSize = archive.length): Promise<Array<TarEntryHeader & { body: string }>> {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < archive.length; offset += chunkSize) chunks.push(archive.subarray(offset, offset + chunkSize));
  const entries: Array<TarEntryHeader & { body: string }> = [];
  await readTar(Readable.from(chunks), async (header, body) => {
    entries.push({ ...header, body: (await collect(body)).toString('utf8') });
  });
  return entries;
}

describe('tar archive', () => {
  let folder: string;
  let source: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'agentbench-tar-'));
    source = join(folder, 'source');
    await mkdir(join(source, 'sub', 'empty'), { recursive: true });
    await mkdir(join(source, ...longName.split('/').slice(0, -1)), { recursive: true });
    await writeFile(join(source, longName), 'long\n');
    await writeFile(join(source, 'sub', 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(source, 'sub', 'run.sh'), 0o755);
    await writeFile(join(source, 'ünïcode.txt'), 'ü\n');
    await writeFile(join(source, 'empty.txt'), '');
    await writeFile(join(source, 'block.bin'), Buffer.alloc(512, 1));
    await symlink('sub/run.sh', join(source, 'link'));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('writes whole blocks ending in two zero blocks, with the given owner and modes (0 included)', async () => {
    const archive = await collect(tarFiles([{ path: 'file.txt', data: Buffer.from('hello'), mode: 0o640 }, { path: 'closed', data: Buffer.alloc(0), mode: 0 }], { uid: 1000, gid: 1001 }));
    expect(archive.length % 512).toBe(0);
    expect(archive.subarray(-1024).every((byte) => byte === 0)).toBe(true);
    const entries = await entriesOf(archive);
    expect(entries).toMatchObject([
      { path: 'file.txt', type: 'file', size: 5, mode: 0o640, uid: 1000, gid: 1001, body: 'hello' },
      { path: 'closed', type: 'file', size: 0, mode: 0 },
    ]);
  });

  it('uses a pax header for names ustar cannot hold (long, non-ASCII)', async () => {
    const unsplittable = `${'x'.repeat(150)}.txt`;
    const archive = await collect(tarFiles([{ path: unsplittable, data: Buffer.alloc(0) }, { path: longName, data: Buffer.alloc(0) }, { path: 'ünïcode.txt', data: Buffer.alloc(0) }]));
    expect(String.fromCharCode(archive[156]!)).toBe('x');
    expect(archive.subarray(512, 1024).toString()).toContain(`path=${unsplittable}\n`);
    expect((await entriesOf(archive)).map((entry) => entry.path)).toEqual([unsplittable, longName, 'ünïcode.txt']);
  });

  it('round-trips a folder: names, modes, bodies, links, whatever the chunking', async () => {
    const archive = await collect(tarHostPath(source, 'root'));
    for (const chunkSize of [archive.length, 700, 1]) {
      if (chunkSize === 1 && archive.length > 200_000) continue;
      const entries = await entriesOf(archive, chunkSize);
      const byPath = new Map(entries.map((entry) => [entry.path, entry]));
      expect(byPath.get(`root/${longName}`)?.body).toBe('long\n');
      expect(byPath.get('root/sub/run.sh')).toMatchObject({ type: 'file', mode: 0o755, body: '#!/bin/sh\necho hi\n' });
      expect(byPath.get('root/ünïcode.txt')?.body).toBe('ü\n');
      expect(byPath.get('root/empty.txt')).toMatchObject({ type: 'file', size: 0, body: '' });
      expect(byPath.get('root/block.bin')?.size).toBe(512);
      expect(byPath.get('root/link')).toMatchObject({ type: 'symlink', linkTarget: 'sub/run.sh' });
      expect(byPath.get('root/sub/empty')).toMatchObject({ type: 'directory' });
    }
  });

  it('puts a folder contents at the top with ".", without an entry for the folder itself', async () => {
    const entries = await entriesOf(await collect(tarHostPath(join(source, 'sub'), '.')));
    expect(entries.map((entry) => entry.path).sort()).toEqual(['empty', 'run.sh']);
  });

  it('skips an unread body and reads the next entry', async () => {
    const archive = await collect(tarFiles([{ path: 'first.txt', data: Buffer.alloc(1000, 65) }, { path: 'second.txt', data: Buffer.from('second') }]));
    const seen: string[] = [];
    await readTar(Readable.from([archive]), async (header, body) => {
      if (header.path === 'second.txt') seen.push((await collect(body)).toString());
      else seen.push(header.path);
    });
    expect(seen).toEqual(['first.txt', 'second']);
  });

  it('refuses something that is not a tar archive, or a truncated one', async () => {
    await expect(readTar(Readable.from([Buffer.alloc(512, 7)]), async () => undefined)).rejects.toThrow(/unreadable archive \(Invalid tar header/);
    const truncated = (await collect(tarFiles([{ path: 'file.txt', data: Buffer.alloc(2000, 1) }]))).subarray(0, 1024);
    await expect(readTar(Readable.from([truncated]), async () => undefined)).rejects.toThrow(/unreadable archive \(Unexpected end of data/);
    const seen: string[] = [];
    await expect(
      readTar(Readable.from([truncated]), async (header, body) => {
        seen.push(header.path);
        await collect(body);
      }),
    ).rejects.toThrow(/unreadable archive/);
    expect(seen).toEqual(['file.txt']);
  });

  it('refuses a header whose size is negative (base-256)', async () => {
    const archive = await collect(tarFiles([{ path: 'file.txt', data: Buffer.from('x') }]));
    const negative = withHeaderField(archive, 124, Buffer.from([0xff, ...Array<number>(10).fill(0xff), 0xfe]));
    await expect(readTar(Readable.from([negative]), async () => undefined)).rejects.toThrow(/impossible size/);
  });

  it('stops at the first entry whose handler throws, with its error', async () => {
    const archive = await collect(tarFiles([{ path: 'a', data: Buffer.alloc(100_000, 1) }, { path: 'b', data: Buffer.from('b') }]));
    const seen: string[] = [];
    await expect(
      readTar(Readable.from([archive.subarray(0, 600), archive.subarray(600)]), async (header) => {
        seen.push(header.path);
        throw new Error(`refused ${header.path}`);
      }),
    ).rejects.toThrow('refused a');
    expect(seen).toEqual(['a']);
  });

  it('extracts to the host under a new name, links last, and refuses entries outside the root', async () => {
    const destination = join(folder, 'extracted');
    await extractTarToHost(Readable.from([await collect(tarHostPath(source, 'root'))]), { archiveRoot: 'root', hostPath: destination });
    expect(await readFile(join(destination, longName), 'utf8')).toBe('long\n');
    expect((await stat(join(destination, 'sub', 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readlink(join(destination, 'link'))).toBe('sub/run.sh');
    const evil = await collect(tarFiles([{ path: 'root/../../escaped.txt', data: Buffer.alloc(0) }]));
    await expect(extractTarToHost(Readable.from([evil]), { archiveRoot: 'root', hostPath: join(folder, 'evil') })).rejects.toThrow(/unexpected archive entry/);
  });

  it.skipIf(!hasTar)('is read by GNU tar, and reads what GNU tar writes (long names, hard links)', async () => {
    const ours = join(folder, 'ours.tar');
    await writeFile(ours, await collect(tarHostPath(source, 'root')));
    const listing = spawnSync('tar', ['-tf', ours], { encoding: 'utf8' });
    expect(listing.status).toBe(0);
    expect(listing.stdout.split('\n')).toEqual(expect.arrayContaining([`root/${longName}`, 'root/sub/run.sh', 'root/link']));

    await link(join(source, 'sub', 'run.sh'), join(source, 'hard-link'));
    for (const format of ['gnu', 'pax', 'ustar']) {
      const theirs = join(folder, `theirs-${format}.tar`);
      const created = spawnSync('tar', [`--format=${format}`, '-cf', theirs, '-C', folder, 'source'], { encoding: 'utf8' });
      if (format === 'ustar') {
        // ustar cannot hold the long name: GNU tar says so; nothing to read.
        continue;
      }
      expect(created.status, created.stderr).toBe(0);
      const entries = await entriesOf(await readFile(theirs));
      const byPath = new Map(entries.map((entry) => [entry.path, entry]));
      expect(byPath.get(`source/${longName}`)?.body).toBe('long\n');
      expect(byPath.get('source/link')).toMatchObject({ type: 'symlink', linkTarget: 'sub/run.sh' });
      const hard = [byPath.get('source/hard-link'), byPath.get('source/sub/run.sh')];
      expect(hard.filter((entry) => entry?.type === 'hardlink')).toHaveLength(1);
    }
    await rm(join(source, 'hard-link'));
  });
});
