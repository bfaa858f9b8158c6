import { describe, expect, it } from 'vitest';
import { formatIssue } from '../errors/validation-issue.js';
import { MAX_ALIAS_EXPANSION, MAX_NESTING_DEPTH, MAX_YAML_TOKENS, parseYamlSource } from './yaml-source.js';

function problems(text: string): string[] {
  const source = parseYamlSource(text, 'f.yaml');
  if (source.syntaxIssues.length > 0) expect(source.data).toBeUndefined();
  return source.syntaxIssues.map(formatIssue);
}

/** A mapping nested `levels` deep in block style: `a:\n  a:\n    a: 1`. */
function blockNesting(levels: number): string {
  return Array.from({ length: levels }, (_, index) => `${'  '.repeat(index)}a:${index === levels - 1 ? ' 1' : ''}`).join('\n');
}

describe('parseYamlSource', () => {
  it('parses an ordinary file with positions', () => {
    const source = parseYamlSource('name: x\nrun:\n  - input: hi\n', 'f.yaml');
    expect(source.data).toEqual({ name: 'x', run: [{ input: 'hi' }] });
    expect(source.isEmpty).toBe(false);
    expect(source.locate('run[0].input')).toEqual({ line: 3, column: 12 });
    expect(parseYamlSource('# only a comment\n', 'f.yaml').isEmpty).toBe(true);
  });

  it('stops a billion-laughs alias bomb at the alias that crosses the limit, with its line', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [index, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      const previous = String.fromCharCode('a'.charCodeAt(0) + index);
      bomb.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    expect(problems(bomb.join('\n'))).toEqual([
      `f.yaml:6:8: aliases expand the document to more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} values (at this alias *e; an alias bomb?)`,
    ]);
  });

  it('accepts ordinary anchors and aliases', () => {
    expect(parseYamlSource('base: &base {a: 1}\nother: *base\n', 'f.yaml').data).toEqual({ base: { a: 1 }, other: { a: 1 } });
  });

  it('refuses recursive and dangling aliases', () => {
    expect(problems('a: &x [1, *x]\n')).toEqual(['f.yaml:1:11: alias *x is inside the value it refers to (a recursive alias)']);
    expect(problems('a: 1\nb: *nowhere\n')[0]).toMatch(/^f\.yaml:2:4: /);
  });

  it('refuses nesting deeper than the limit, at the first level past it', () => {
    expect(problems(blockNesting(MAX_NESTING_DEPTH))).toEqual([]);
    expect(problems(blockNesting(MAX_NESTING_DEPTH + 1))).toEqual([
      `f.yaml:${MAX_NESTING_DEPTH + 1}:${2 * MAX_NESTING_DEPTH + 1}: nesting is too deep: more than ${MAX_NESTING_DEPTH} levels of mappings and lists`,
    ]);
  });

  it('reports nesting so deep that the parser runs out of stack as nesting, not as a JavaScript error', () => {
    const [first, ...rest] = problems(`x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(rest).toEqual([]);
    expect(first).toMatch(new RegExp(`^f\\.yaml:1:\\d+: nesting is too deep: more than ${MAX_NESTING_DEPTH} levels of mappings and lists$`));
  });

  it('counts tokens before building the document and names the line where the limit is passed', () => {
    const lines = Math.ceil(MAX_YAML_TOKENS / 2) + 10;
    const text = `run:\n${'- x\n'.repeat(lines)}`;
    // `run` and `:` are two tokens, each `- x` two more: the token past the limit is the `-` of item n.
    const item = Math.floor((MAX_YAML_TOKENS - 1) / 2) + 1;
    expect(problems(text)).toEqual([
      `f.yaml:${item + 1}:1: the file has more than ${MAX_YAML_TOKENS.toLocaleString('en-US')} YAML tokens (keys, values, list items, brackets, \`:\` and \`-\`); input files are limited to that to keep loading fast and small`,
    ]);
  });

  it('finds duplicate keys in linear time and names the first one', () => {
    expect(problems('id: a\nname: b\nid: c\n')).toEqual(['f.yaml:3:1: duplicate key "id" (first at line 1); a key may appear once in a mapping']);
    const many = Array.from({ length: 15_000 }, (_, index) => `k${index}: v`).join('\n');
    expect(problems(`${many}\nk7: again\n`)).toEqual(['f.yaml:15001:1: duplicate key "k7" (first at line 8); a key may appear once in a mapping']);
    // How fast (the parser's own check took minutes on files like this one) is `pnpm bench`'s to say:
    // apps/cli/bench/bad-inputs.bench.mjs times a duplicate after as many keys as the token limit lets through.
  });

  it('says plainly that a file holds several documents, and that tabs do not indent', () => {
    expect(problems('a: 1\n---\nb: 2\n')).toEqual(['f.yaml:2:1: the file holds more than one YAML document (a second one starts here); put everything in one document']);
    expect(problems('run:\n\t- input: hi\n')[0]).toMatch(/^f\.yaml:2:1: YAML syntax error: a tab is used for indentation; indent with spaces$/);
  });

  it('keeps the first YAML errors and counts the rest', () => {
    const issues = problems(Array.from({ length: 50 }, () => 'a: [').join('\n'));
    expect(issues.length).toBeLessThanOrEqual(4);
    expect(issues.at(-1)).toMatch(/more YAML errors from here on, not shown \(fix the ones above first\)$/);
  });
});
