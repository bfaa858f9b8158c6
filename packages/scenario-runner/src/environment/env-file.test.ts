import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyEnvironment, loadEnvFile, parseEnvFile } from './env-file.js';

describe('parseEnvFile', () => {
  it('reads plain, exported, quoted and commented lines', () => {
    const text = [
      '# a comment',
      '',
      'PLAIN=value with spaces # trailing comment',
      'export EXPORTED=yes',
      "SINGLE='literal \\n $HOME'",
      'DOUBLE="line one\\nline two \\"quoted\\""',
      'EMPTY=',
      'MULTI="first',
      'second"',
      'URL=http://127.0.0.1:8080/v1#fragment',
    ].join('\n');
    expect(parseEnvFile(text)).toEqual({
      PLAIN: 'value with spaces',
      EXPORTED: 'yes',
      SINGLE: 'literal \\n $HOME',
      DOUBLE: 'line one\nline two "quoted"',
      EMPTY: '',
      MULTI: 'first\nsecond',
      URL: 'http://127.0.0.1:8080/v1#fragment',
    });
  });

  it('names the file and line of a malformed entry', () => {
    expect(() => parseEnvFile('GOOD=1\nnot a variable\n', '/tmp/x.env')).toThrow('/tmp/x.env:2: expected NAME=value, found "not a variable"');
    expect(() => parseEnvFile('1BAD=2', 'f.env')).toThrow('f.env:1: expected a variable name of letters, digits and "_", found "1BAD"');
    expect(() => parseEnvFile("OPEN='never closed", 'f.env')).toThrow('f.env:1: the value of OPEN opens a \' quote that is never closed');
  });
});

describe('loadEnvFile and applyEnvironment', () => {
  const folders: string[] = [];
  afterEach(async () => {
    await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });

  it('sets the variables for the run and restores the process environment afterwards', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'env-file-'));
    folders.push(folder);
    const file = path.join(folder, 'run.env');
    await writeFile(file, 'AB_TEST_NEW=from-file\nAB_TEST_EXISTING=overridden\n');
    process.env.AB_TEST_EXISTING = 'original';
    delete process.env.AB_TEST_NEW;
    const restore = applyEnvironment(await loadEnvFile(file));
    expect(process.env.AB_TEST_NEW).toBe('from-file');
    expect(process.env.AB_TEST_EXISTING).toBe('overridden');
    restore();
    expect(process.env.AB_TEST_NEW).toBeUndefined();
    expect(process.env.AB_TEST_EXISTING).toBe('original');
    delete process.env.AB_TEST_EXISTING;
  });

  it('fails clearly on a missing file', async () => {
    await expect(loadEnvFile('/nonexistent/agentbench.env')).rejects.toThrow('--env-file /nonexistent/agentbench.env: no such file');
  });

  it('reads an env file like any input file: a regular file, bounded, text', async () => {
    await expect(loadEnvFile('/dev/zero')).rejects.toThrow('--env-file /dev/zero: expected a regular file, found a character device; only regular files are read');
    const folder = await mkdtemp(path.join(tmpdir(), 'env-file-'));
    folders.push(folder);
    const file = path.join(folder, 'binary.env');
    await writeFile(file, Buffer.from('A=1\nB=\u0000\n'));
    await expect(loadEnvFile(file)).rejects.toThrow(`--env-file ${file}:2:3: not a text file: control character U+0000 found`);
    const long = path.join(folder, 'long.env');
    await writeFile(long, `${'x'.repeat(10_000)}\n`);
    await expect(loadEnvFile(long)).rejects.toThrow(/:1: expected NAME=value, found "x{80}"… \(9,920 more characters\)$/);
  });
});
