import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { InputFileError } from '../errors/input-file-error.js';
import { MAX_INPUT_FILE_BYTES, readInputFile, readInputText } from './read-input-file.js';

const directory = useTemporaryDirectory();

async function writeBytes(name: string, bytes: number[] | Buffer): Promise<string> {
  const file = path.join(directory.path, name);
  await writeFile(file, Buffer.from(bytes));
  return file;
}

describe('readInputFile', () => {
  it('reads a UTF-8 file and drops a UTF-8 byte-order mark', async () => {
    const file = await writeBytes('bom.yaml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name: é\n')]));
    expect(await readInputFile(file)).toEqual({ text: 'name: é\n', encoding: 'utf-8', byteLength: 12 });
  });

  it('decodes a file that starts with a UTF-16 byte-order mark, little- and big-endian', async () => {
    const little = await writeBytes('le.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('task_spec_version: "1.0"\n', 'utf16le')]));
    expect(await readInputFile(little)).toMatchObject({ text: 'task_spec_version: "1.0"\n', encoding: 'utf-16le' });
    const bigEndian = Buffer.from('id: ü\n', 'utf16le').swap16();
    const big = await writeBytes('be.yaml', Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]));
    expect(await readInputFile(big)).toMatchObject({ text: 'id: ü\n', encoding: 'utf-16be' });
  });

  it('refuses UTF-32 and broken UTF-16, saying to save the file as UTF-8', async () => {
    const utf32 = await writeBytes('utf32.yaml', [0xff, 0xfe, 0x00, 0x00, 0x69, 0x00, 0x00, 0x00]);
    expect((await readInputFile(utf32)).problem).toEqual({ kind: 'encoding', message: 'the file is UTF-32 (it starts with a UTF-32 byte-order mark); save it as UTF-8' });
    const odd = await writeBytes('odd.yaml', [0xff, 0xfe, 0x69, 0x00, 0x64]);
    expect((await readInputFile(odd)).problem?.message).toBe('the file starts with a UTF-16LE byte-order mark but has an odd number of bytes; save it as UTF-8');
  });

  it('refuses invalid UTF-8 at its line and column', async () => {
    const file = await writeBytes('latin1.yaml', Buffer.concat([Buffer.from('name: a\ndescription: caf'), Buffer.from([0xe9, 0x0a])]));
    expect((await readInputFile(file)).problem).toEqual({
      kind: 'encoding',
      message: 'not valid UTF-8: byte 0xE9 at byte offset 24 cannot start or continue a character; save the file as UTF-8 text',
      line: 2,
      column: 17,
    });
  });

  it('refuses a binary file (a control character) at its line and column', async () => {
    const file = await writeBytes('binary.yaml', Buffer.concat([Buffer.from('a: 1\nb: x'), Buffer.from([0x00, 0x01, 0x02])]));
    expect((await readInputFile(file)).problem).toEqual({
      kind: 'not_text',
      message: 'not a text file: control character U+0000 found (a binary file, or UTF-16 without a byte-order mark?); input files are UTF-8 text',
      line: 2,
      column: 5,
    });
  });

  it('refuses a file over the limit by its size, before reading it', async () => {
    const file = path.join(directory.path, 'huge.yaml');
    await writeFile(file, '');
    await truncate(file, 50 * 1024 * 1024); // sparse: nothing is written
    expect((await readInputFile(file)).problem).toEqual({
      kind: 'too_large',
      message: 'file too large: it is 50 MiB (52,428,800 bytes); the limit for input files is 1 MiB',
    });
    expect(MAX_INPUT_FILE_BYTES).toBe(1024 * 1024);
    const small = await directory.write('small.yaml', 'x'.repeat(2000));
    expect((await readInputFile(small, { maxBytes: 1024 })).problem?.message).toBe('file too large: it is 2.0 KiB (2,000 bytes); the limit for input files is 1 KiB');
  });

  it('refuses a directory and a missing file by name', async () => {
    await mkdir(path.join(directory.path, 'folder.scenario.yaml'));
    expect((await readInputFile(path.join(directory.path, 'folder.scenario.yaml'))).problem).toEqual({
      kind: 'not_a_file',
      message: 'expected a regular file, found a directory; only regular files are read',
    });
    expect((await readInputFile(path.join(directory.path, 'nope.yaml'))).problem).toEqual({ kind: 'not_found', message: 'file not found' });
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    const fifo = path.join(directory.path, 'pipe.scenario.yaml');
    execFileSync('mkfifo', [fifo]);
    // A blocking open would hang here: nobody ever writes to the pipe.
    expect((await readInputFile(fifo)).problem).toEqual({ kind: 'not_a_file', message: 'expected a regular file, found a named pipe (FIFO); only regular files are read' });
  });

  it.skipIf(!existsSync('/dev/zero'))('refuses /dev/zero (a character device) instead of reading it', async () => {
    expect((await readInputFile('/dev/zero')).problem).toEqual({ kind: 'not_a_file', message: 'expected a regular file, found a character device; only regular files are read' });
  });

  it('readInputText throws an InputFileError naming the file and position', async () => {
    const file = await writeBytes('nul.yaml', [0x61, 0x0a, 0x00]);
    const error = await readInputText(file).catch((caught: unknown) => caught);
    expect(InputFileError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`${file}:2:1: not a text file: control character U+0000 found (a binary file, or UTF-16 without a byte-order mark?); input files are UTF-8 text`);
    expect(await readInputText(await directory.write('ok.env', 'A=1\n'))).toBe('A=1\n');
  });
});
