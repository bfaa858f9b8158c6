import { afterEach, describe, expect, it } from 'vitest';
import { createLocalToolSet, type LocalToolSet } from '../test/helpers/local-tool-set.js';

let workspace: LocalToolSet | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const numbered = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('returns the whole text with its line count', async () => {
    workspace = await createLocalToolSet({ 'src/calc.py': 'def add(a, b):\n    return a - b\n' });
    const result = await workspace.call('read_file', { path: 'src/calc.py' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ path: 'src/calc.py', content: 'def add(a, b):\n    return a - b', total_lines: 2, start_line: 1, end_line: 2, truncated: false });
  });

  it('returns a range of lines, accepting numbers sent as strings and clamping the end', async () => {
    workspace = await createLocalToolSet({ 'notes.txt': numbered(10) });
    expect((await workspace.call('read_file', { path: 'notes.txt', start_line: 3, end_line: 5 })).data).toMatchObject({
      content: 'line 3\nline 4\nline 5',
      start_line: 3,
      end_line: 5,
      total_lines: 10,
    });
    expect((await workspace.call('read_file', { path: 'notes.txt', start_line: '9', end_line: '40' })).data).toMatchObject({ content: 'line 9\nline 10', end_line: 10 });
  });

  it('refuses a range past the end or upside down', async () => {
    workspace = await createLocalToolSet({ 'notes.txt': numbered(10) });
    const past = await workspace.call('read_file', { path: 'notes.txt', start_line: 11 });
    expect(past.error?.kind).toBe('invalid_arguments');
    expect(past.error?.message).toContain('has 10 lines');
    const reversed = await workspace.call('read_file', { path: 'notes.txt', start_line: 5, end_line: 4 });
    expect(reversed.error?.kind).toBe('invalid_arguments');
  });

  it('keeps the head and tail of a very long file with a marker naming the lines left out', async () => {
    workspace = await createLocalToolSet({ 'big.log': numbered(5000) });
    const result = await workspace.call('read_file', { path: 'big.log' });
    const content = result.data?.['content'] as string;
    const lines = content.split('\n');
    expect(lines[0]).toBe('line 1');
    expect(lines[999]).toBe('line 1000');
    expect(lines[1000]).toContain('lines 1001-4000 (3000 lines) omitted');
    expect(lines[1001]).toBe('line 4001');
    expect(lines[lines.length - 1]).toBe('line 5000');
    expect(result.data).toMatchObject({ truncated: true, total_lines: 5000, lines_included: '1-1000, 4001-5000', lines_omitted: '1001-4000' });
    // The omitted lines are one range request away.
    const middle = await workspace.call('read_file', { path: 'big.log', start_line: 2500, end_line: 2501 });
    expect(middle.data?.['content']).toBe('line 2500\nline 2501');
  });

  it('cuts by size too, including a single enormous line', async () => {
    workspace = await createLocalToolSet({ 'min.js': `${'x'.repeat(1_000_000)}\n` }, { limits: { readFileMaxBytes: 10_000 } });
    const result = await workspace.call('read_file', { path: 'min.js' });
    const content = result.data?.['content'] as string;
    expect(content.length).toBeLessThan(6_000);
    expect(content).toContain('[line cut: 1000000 characters]');
    expect(result.data).toMatchObject({ truncated: true, long_lines_cut: 1 });
  });

  it.each([
    ['a NUL byte', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x41])],
    ['invalid UTF-8', Uint8Array.from([0x68, 0x69, 0xff, 0xfe, 0x0a])],
  ])('reports a file with %s as binary_file', async (_name, bytes) => {
    workspace = await createLocalToolSet({ 'data.bin': bytes });
    const result = await workspace.call('read_file', { path: 'data.bin' });
    expect(result.error).toMatchObject({ kind: 'binary_file', details: { path: 'data.bin', size_bytes: bytes.length } });
  });

  it('suggests near names for a missing file: same folder first, then the same name elsewhere', async () => {
    workspace = await createLocalToolSet({ 'src/calc.py': '', 'src/calculator.py': '', 'src/other.py': '', 'lib/util.py': '' });
    const typo = await workspace.call('read_file', { path: 'src/calk.py' });
    expect(typo.error?.kind).toBe('file_not_found');
    expect(typo.error?.details?.['suggestions']).toEqual(['src/calc.py']);
    expect(typo.error?.message).toContain('Did you mean: src/calc.py?');
    const elsewhere = await workspace.call('read_file', { path: 'util.py' });
    expect(elsewhere.error?.details?.['suggestions']).toEqual(['lib/util.py']);
    const missingFolder = await workspace.call('read_file', { path: 'srx/calc.py' });
    expect(missingFolder.error?.details?.['suggestions']).toEqual(['src/', 'src/calc.py']);
  });

  it('suggests at most the configured number of names', async () => {
    const files: Record<string, string> = {};
    for (const name of ['ab.py', 'ac.py', 'ad.py', 'ae.py', 'af.py', 'ag.py', 'ah.py']) files[name] = '';
    workspace = await createLocalToolSet(files, { limits: { suggestionCount: 3 } });
    const result = await workspace.call('read_file', { path: 'aa.py' });
    expect(result.error?.details?.['suggestions']).toEqual(['ab.py', 'ac.py', 'ad.py']);
  });

  it('lists a folder instead of failing', async () => {
    workspace = await createLocalToolSet({ 'src/calc.py': '', 'src/util/x.py': '', 'src/.hidden': '' });
    await workspace.link('src/link.py', 'calc.py');
    const result = await workspace.call('read_file', { path: 'src' });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ is_directory: true, entries: ['src/.hidden', 'src/calc.py', 'src/link.py@', 'src/util/'], total_entries: 4 });
    expect((await workspace.call('read_file', { path: '.' })).data?.['entries']).toEqual(['src/']);
  });

  it('shows a CRLF file without carriage returns and says so', async () => {
    workspace = await createLocalToolSet({ 'win.txt': 'one\r\ntwo\r\n' });
    const result = await workspace.call('read_file', { path: 'win.txt' });
    expect(result.data).toMatchObject({ content: 'one\ntwo', line_endings: 'crlf', total_lines: 2 });
  });

  it.each([
    ['../secret.txt', 'path_escape'],
    ['/etc/passwd', 'path_escape'],
    ['src/../../x', 'path_escape'],
  ])('refuses %s with %s', async (path, kind) => {
    workspace = await createLocalToolSet({ 'src/calc.py': '' });
    const result = await workspace.call('read_file', { path });
    expect(result.error?.kind).toBe(kind);
  });

  it('refuses to read through a symbolic link that leads outside the workspace', async () => {
    workspace = await createLocalToolSet({ 'src/calc.py': '' });
    await workspace.link('passwd', '/etc/passwd');
    await workspace.link('etc', '/etc');
    expect((await workspace.call('read_file', { path: 'passwd' })).error?.kind).toBe('symlink_blocked');
    expect((await workspace.call('read_file', { path: 'etc/hostname' })).error?.kind).toBe('symlink_blocked');
  });

  it('refuses a link into another process root (/proc/1/root/…) as symlink_blocked, not sandbox_error', async () => {
    // Following it fails with EACCES without the right to trace pid 1: still a link out.
    workspace = await createLocalToolSet({ 'src/calc.py': '' });
    await workspace.link('host-passwd', '/proc/1/root/etc/passwd');
    await workspace.link('host-root', '/proc/1/root');
    expect((await workspace.call('read_file', { path: 'host-passwd' })).error?.kind).toBe('symlink_blocked');
    expect((await workspace.call('read_file', { path: 'host-root/etc/passwd' })).error?.kind).toBe('symlink_blocked');
  });
});
