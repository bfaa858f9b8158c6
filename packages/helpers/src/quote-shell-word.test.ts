import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quoteShellWord, quoteShellWords } from './quote-shell-word.js';

// Every word a real shell must give back unchanged, one per argument.
const awkwardWords = [
  'test_call_command_unrecognized_option (user_commands.tests.CommandTests)',
  'testing/test_assertrewrite.py::TestPyCacheDir::test_get_cache_dir[/tmp/pycs-/home/projects/src/foo.py-/tmp/pycs/home/projects/src]',
  "To avoid conflicts with custom options, commands don't allow",
  'tests/test_x.py::test_y[it\'s "quoted" $HOME `id` \\n *]',
  'line one\nline two',
  '',
  '-k',
  "''",
  '!history & | ; < > ( ) { } ~ # *',
];

function echoThroughShell(command: string): string[] {
  // printf prints each argument followed by a NUL, so arguments with newlines survive the round trip.
  const output = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
  return output.split('\0').slice(0, -1);
}

describe('quoteShellWord', () => {
  it('gives every awkward word back unchanged through /bin/sh', () => {
    expect(echoThroughShell(quoteShellWords(awkwardWords))).toEqual(awkwardWords);
  });

  it('gives them back through bash too', () => {
    const output = execFileSync('bash', ['-c', `printf '%s\\0' ${quoteShellWords(awkwardWords)}`], { encoding: 'utf8' });
    expect(output.split('\0').slice(0, -1)).toEqual(awkwardWords);
  });

  it('leaves plain words alone unless asked to quote them', () => {
    expect(quoteShellWord('tests/test_a.py::test_b')).toBe('tests/test_a.py::test_b');
    expect(quoteShellWord('tests/test_a.py::test_b', { isAlwaysQuoted: true })).toBe("'tests/test_a.py::test_b'");
  });

  it("writes a single quote as '\\''", () => {
    expect(quoteShellWord("don't")).toBe("'don'\\''t'");
    expect(quoteShellWord('')).toBe("''");
  });
});
