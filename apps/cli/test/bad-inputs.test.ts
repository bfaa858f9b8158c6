import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYamlSource } from '@agentbench/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBadInputs } from '../../../fixtures/bad-inputs/generate.mjs';
import { runCli } from './run-cli.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = path.join(repoRoot, 'fixtures/bad-inputs');

interface Expectation {
  exit?: number;
  error?: string;
  at?: string;
  names_file?: boolean;
}

interface BadInputCase extends Expectation {
  name: string;
  kind: 'task' | 'scenario' | 'matrix';
  file?: string;
  generated?: string;
  error_file?: string;
  validate?: Expectation;
  run?: Expectation;
  max_lines?: number;
  result_max_bytes?: number;
}

const table = parseYamlSource(readFileSync(path.join(corpus, 'cases.yaml'), 'utf8'), 'cases.yaml');
const cases = (table.data as { cases: BadInputCase[] }).cases;
const commands = ['validate', 'run'] as const;

let scratch: string;
let generated: Record<string, string>;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ab-bad-inputs-'));
  generated = await generateBadInputs(path.join(scratch, 'generated'));
}, 120_000);
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function inputOf(entry: BadInputCase): string {
  if (entry.generated !== undefined) return generated[entry.generated] as string;
  return path.join(corpus, entry.file as string);
}

function argumentsFor(entry: BadInputCase, command: (typeof commands)[number], file: string, out: string): string[] {
  if (command === 'validate') return ['validate', file];
  if (entry.kind === 'task') return ['run-task', file, '--out', out];
  return ['scenario', entry.kind === 'scenario' ? 'run' : 'matrix', file, '--out', out];
}

async function filesUnder(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the bad-input corpus (fixtures/bad-inputs/cases.yaml)', () => {
  it('covers every case of issue 17 and the ordinary mistakes', () => {
    expect(table.syntaxIssues).toEqual([]);
    const names = cases.map((entry) => entry.name);
    for (const name of ['task-alias-bomb', 'huge-value', 'huge-lines', 'fifo', 'dev-zero', 'long-value', 'binary', 'unknown-evaluator', 'utf16-little-endian', 'deep-flow-nesting', 'plugin-never-settles', 'plugin-exits', 'plugin-floods']) {
      expect(names).toContain(name);
    }
    for (const name of ['wrong-type', 'unknown-key', 'missing-field', 'empty', 'directory', 'tabs', 'duplicate-key', 'multi-document']) expect(names).toContain(name);
    expect(new Set(names).size).toBe(names.length);
  });

  describe.each(cases.flatMap((entry) => commands.map((command) => [`${entry.name}: ab ${command === 'validate' ? 'validate' : entry.kind === 'task' ? 'run-task' : `scenario ${entry.kind === 'scenario' ? 'run' : 'matrix'}`}`, entry, command] as const)))(
    '%s',
    (_title, entry, command) => {
      it('fails with the one-line error, naming the file and its position, without a stack trace', async () => {
        const expected: Expectation = { exit: 1, names_file: true, ...entry, ...(command === 'validate' ? entry.validate : entry.run) };
        const file = inputOf(entry);
        const out = path.join(scratch, 'out', entry.name, command);
        const run = await runCli(argumentsFor(entry, command, file, out));
        const output = `${run.stdout}${run.stderr}`;
        const lines = output.split('\n').filter((line) => line !== '');
        expect({ exitCode: run.exitCode, output }).toMatchObject({ exitCode: expected.exit });
        expect(output).not.toMatch(/^\s+at /m);
        expect(output).not.toContain('internal error');
        expect(lines.length).toBeLessThanOrEqual(entry.max_lines ?? 6);
        if (expected.exit === 0 || expected.error === undefined) return;
        const line = lines.find((candidate) => candidate.includes(expected.error as string));
        expect(line, `no line with ${JSON.stringify(expected.error)} in:\n${output}`).toBeDefined();
        if (expected.names_file) {
          const named = entry.error_file === undefined ? file : path.join(corpus, entry.error_file);
          expect(line).toContain(expected.at === undefined ? named : `${named}:${expected.at}${expected.at.includes(':') ? '' : ':'}`);
        }
        if (entry.result_max_bytes !== undefined && command === 'run') {
          const results = (await filesUnder(out)).filter((candidate) => candidate.endsWith('result.json'));
          expect(results).toHaveLength(1);
          expect((await stat(results[0] as string)).size).toBeLessThan(entry.result_max_bytes);
        }
      });
    },
  );
});
