import { mkdir, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validScenarioYaml, validTaskYaml } from '../../test/helpers/fixtures.js';
import { useTemporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { MAX_INPUT_FILE_BYTES } from './read-input-file.js';
import { validateFile } from './validate-file.js';
import { formatIssue } from '../errors/validation-issue.js';

const directory = useTemporaryDirectory();

describe('validateFile', () => {
  it('validates a task and a scenario by kind', async () => {
    const task = await directory.write('suite/t/task.yaml', validTaskYaml);
    const scenario = await directory.write('s.scenario.yaml', validScenarioYaml);
    expect(await validateFile(task)).toEqual({ file: task, kind: 'task', issues: [], isValid: true });
    expect(await validateFile(scenario)).toEqual({ file: scenario, kind: 'scenario', issues: [], isValid: true });
  });

  it('returns all issues of a file, not only the first', async () => {
    const text = validScenarioYaml.replace('type: local', 'type: local\n  gpu: true').replace('strategy: all_pass', 'strategy: best').concat('extra: 1\n');
    const file = await directory.write('s.scenario.yaml', text);
    const report = await validateFile(file);
    expect(report.isValid).toBe(false);
    expect(report.issues.map(formatIssue)).toEqual([
      `${file}:5:3: environment.gpu: unknown field "gpu" (expected one of: type, image, network, workdir, runtime, setup)`,
      `${file}:12:13: judgment.strategy: expected "all_pass" | "any_pass" | "threshold", found "best"`,
      `${file}:13:1: extra: unknown field "extra" (expected one of: name, description, plugins, environment, setup, agent, run, judgment)`,
    ]);
  });

  it('names a bad environment.runtime with its line and what a runtime name looks like', async () => {
    const file = await directory.write('suite/t/task.yaml', validTaskYaml.replace(/^environment:\n/m, 'environment:\n  runtime: "g visor"\n'));
    const report = await validateFile(file);
    expect(report.issues.map(formatIssue)).toEqual([expect.stringMatching(/task\.yaml:\d+:\d+: environment\.runtime: expected a container runtime name such as "runsc"/)]);
  });

  it('reports a file whose kind it cannot tell, and a missing file', async () => {
    const file = await directory.write('notes.yaml', 'colour: blue\n');
    const unknown = await validateFile(file);
    expect(unknown.kind).toBeUndefined();
    expect(unknown.issues.map(formatIssue)).toEqual([
      `${file}:1:1: cannot tell the kind of file: expected task.yaml (with task_spec_version), *.scenario.yaml or *.matrix.yaml`,
    ]);
    const missing = path.join(directory.path, 'gone.scenario.yaml');
    expect((await validateFile(missing)).issues.map(formatIssue)).toEqual([`${missing}:1:1: file not found`]);
  });

  it('shows at most 80 characters of a wrong value, escaped, and counts the rest', async () => {
    const file = await directory.write('long.scenario.yaml', validScenarioYaml.replace('strategy: all_pass', `strategy: "${'\\u0007'.repeat(3)}${'b'.repeat(1_000_000)}"`));
    const report = await validateFile(file);
    const [line] = report.issues.map(formatIssue);
    expect(line).toBe(`${file}:11:13: judgment.strategy: expected "all_pass" | "any_pass" | "threshold", found "\\u0007\\u0007\\u0007${'b'.repeat(62)}"… (999,938 more characters)`);
    expect(report.issues[0]?.received?.length).toBeLessThan(120);
  });

  it('reads a UTF-16 file with a byte-order mark, and names an unknown key of a long name briefly', async () => {
    const file = path.join(directory.path, 'suite/utf16/task.yaml');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${validTaskYaml}${'k'.repeat(500)}: 1\n`, 'utf16le')]));
    const report = await validateFile(file);
    expect(report.issues.map(formatIssue)).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:23:1: \\["k{80}…"\\]: unknown field "k{80}"… \\(420 more characters\\) \\(expected one of: `)),
    ]);
  });

  it('refuses a file over the size limit, a directory and a binary file by name, kind or content', async () => {
    const big = await directory.write('big.scenario.yaml', '');
    await truncate(big, MAX_INPUT_FILE_BYTES + 1);
    expect((await validateFile(big)).issues.map(formatIssue)).toEqual([`${big}:1:1: file too large: it is 1.0 MiB (1,048,577 bytes); the limit for input files is 1 MiB`]);
    const folder = path.join(directory.path, 'folder.matrix.yaml');
    await mkdir(folder);
    expect((await validateFile(folder)).issues.map(formatIssue)).toEqual([`${folder}:1:1: expected a regular file, found a directory; only regular files are read`]);
    const binary = path.join(directory.path, 'notes.yaml');
    await writeFile(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01]));
    expect((await validateFile(binary)).issues.map(formatIssue)).toEqual([`${binary}:1:1: not a text file: control character U+007F found; input files are UTF-8 text`]);
  });

  it('converts at most 100 problems of a file and counts the rest', async () => {
    const file = await directory.write('suite/many/task.yaml', validTaskYaml.replace('labels:\n  - toy', `labels: [${Array(500).fill('1').join(', ')}]`));
    const report = await validateFile(file);
    expect(report.issues).toHaveLength(101);
    expect(formatIssue(report.issues[0] as (typeof report.issues)[number])).toBe(`${file}:5:10: labels[0]: expected string, found 1 (quote the value in YAML to keep it a string)`);
    expect(report.issues.at(-1)?.message).toBe('400 more problems from here on, not listed (fix the ones above first)');
  });

  it('runs the checks a caller adds for scenarios that pass the schema', async () => {
    const file = await directory.write('s.scenario.yaml', validScenarioYaml);
    const report = await validateFile(file, {
      scenario: async (loaded) => [{ file, ...loaded.locate('run[0].evaluations[0].type'), path: 'run[0].evaluations[0].type', message: 'checked', severity: 'error' }],
    });
    expect(report.isValid).toBe(false);
    expect(report.issues.map(formatIssue)).toEqual([`${file}:8:15: run[0].evaluations[0].type: checked`]);
    // The checks see the loaded (absolute) file; the report names it as the caller did.
    const relative = path.relative(process.cwd(), file);
    const named = await validateFile(relative, { scenario: async (loaded) => [{ file: loaded.file, line: 1, column: 1, path: '', message: 'checked', severity: 'warning' }] });
    expect(named.issues.map(formatIssue)).toEqual([`${relative}:1:1: warning: checked`]);
  });
});
