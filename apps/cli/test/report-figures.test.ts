import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { writeSyntheticRunFolder, type SyntheticAttempt } from '../../../test-support/synthetic-run-folder.js';
import { runCli } from './run-cli.js';

// Issue 27, items 3, 4 and 10, as the issue tells them: run A is the scripted agent (no model, no
// tokens, no cost) passing toy_fail_pytest ten times; run B is an LLM without a price that fixes it
// once and regresses nine times (#2 … #10) the same way, at tool call 1, using 1,050 tokens in all.

const MODEL = 'openai/gpt-4o-mini';
// Written by the agent: it must reach a page escaped, and read as a diff.
const PATCH = {
  tool: 'apply_patch',
  params: { unified_diff: '--- a/src/toy_calc/stats.py\n+++ b/src/toy_calc/stats.py\n@@ -1,2 +1,2 @@\n-    return "<script>alert(1)</script>"\n+    return sorted(values)[len(values) // 2]\n' },
};
const READ = { tool: 'read_file', params: { path: 'src/toy_calc/stats.py' } };
const GIVE_UP = { tool: 'search', params: { query: 'median' } };
const REPEATS = 10;

let directory: TemporaryDirectory;
let runA: string;
let runB: string;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  const scripted: SyntheticAttempt[] = Array.from({ length: REPEATS }, () => ({
    taskId: 'toy_fail_pytest',
    passed: true,
    tools: [PATCH],
    model: null,
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    extraFields: { backend: 'docker', runtime: 'runsc' },
  }));
  const llm: SyntheticAttempt[] = Array.from({ length: REPEATS }, (_, index) => ({
    taskId: 'toy_fail_pytest',
    passed: index === 0,
    tools: index === 0 ? [PATCH] : [READ, GIVE_UP],
    model: MODEL,
    inputTokens: 100,
    outputTokens: 5,
    costUsd: null,
    extraFields: { backend: 'docker', runtime: 'runc' },
  }));
  runA = await writeSyntheticRunFolder(path.join(directory.path, 'scripted'), 'run-a', scripted);
  runB = await writeSyntheticRunFolder(path.join(directory.path, 'llm'), 'run-b', llm);
});
afterEach(async () => {
  await directory.remove();
});

/** The figure table's line of one figure, its cells split. */
function figureCells(text: string, label: string): string[] {
  const line = text.split('\n').find((candidate) => candidate.startsWith(label)) ?? '';
  return line.slice(label.length).trim().split(/\s{2,}/);
}

describe('costs and tokens (issue 27, item 3)', () => {
  it("ab compare shows B's tokens though A reports none, and an unknown cost as unknown, never $0.00", async () => {
    const run = await runCli(['compare', runA, runB]);
    expect(run.exitCode).toBe(0);
    // mean A, mean B, Δ mean, total A, total B, Δ total, pairs.
    expect(figureCells(run.stdout, 'tokens (in + out)')).toEqual(['–', '105', '–', '–', '1050', '–', '0']);
    expect(figureCells(run.stdout, 'cost')).toEqual(['–', '–', '–', '–', '–', '–', '0']);
    expect(run.stdout).not.toContain('$0.00');
    expect(run.stdout).toContain(`B: cost unknown: no price for model ${MODEL}`);
  });

  it("ab report A B shows B's tokens in the comparison (it said total B 0)", async () => {
    const markdown = await runCli(['report', runA, runB, '--format', 'md']);
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain('| tokens (in + out) | – | 105 | – | – | 1050 | – | 0 |');
    expect(markdown.stdout).not.toContain('$0.00');
  });

  it('shows an unknown cost as unknown in every report format, and a known zero as $0.00', async () => {
    const html = await readFile((await runCli(['report', runB, '--out', path.join(directory.path, 'b.html')])).stdout.match(/wrote (\S+)/)?.[1] ?? '', 'utf8');
    const card = html.slice(html.indexOf('data-testid="overall-card"'), html.indexOf('</section>', html.indexOf('data-testid="overall-card"')));
    expect(card).toContain('105 tokens · – ·');
    expect(card).toContain(`cost unknown: no price for model ${MODEL}`);
    expect(html).not.toContain('$0.00');
    // The row's detail says it too (the page's data).
    expect(html).toContain(`"notes":["cost unknown: no price for model ${MODEL}"]`);

    const markdown = (await runCli(['report', runB, '--format', 'md'])).stdout;
    expect(markdown).toMatch(new RegExp(`\\| ${MODEL} \\| 10 \\| 1 \\| .* \\| 105 \\| – \\|`));
    expect(markdown).toContain(`cost unknown: no price for model ${MODEL}`);
    expect(markdown).not.toContain('$0.00');

    const json = JSON.parse((await runCli(['report', runB, '--format', 'json'])).stdout);
    expect(json.summary.overall).toMatchObject({ mean_cost_usd: null, total_cost_usd: null, cost_unknown_models: [MODEL] });
    expect(json.rows[0].cost_usd).toBeNull();

    const junit = (await runCli(['report', runB, '--format', 'junit'])).stdout;
    expect(junit).toContain(`<property name="cost_unknown_models" value="${MODEL}"/>`);

    const free = await writeSyntheticRunFolder(path.join(directory.path, 'free'), 'run-free', [{ taskId: 'toy_fail_pytest', passed: true, model: 'free/model', costUsd: 0 }]);
    const freeMarkdown = (await runCli(['report', free, '--format', 'md'])).stdout;
    expect(freeMarkdown).toMatch(/\| free\/model \| 1 \| 1 \| .* \| \$0\.00 \|/);
    expect(freeMarkdown).not.toContain('cost unknown');
  });
});

describe('what ran (issue 27, item 4)', () => {
  it("ab compare's changed-task rows say which model and repeat each is", async () => {
    const run = await runCli(['compare', runA, runB]);
    const changed = run.stdout.slice(run.stdout.indexOf('changed tasks:'));
    expect(changed).toMatch(new RegExp(`toy_fail_pytest +9 +pass → fail +passed +TESTS_FAILED +tool call 1 +A scripted → B ${MODEL} #2–#10`));
    expect(changed).toContain(`toy_fail_pytest (A scripted → B ${MODEL} #2–#10), tool call 1:`);
  });

  it("shows each run's backend and runtime in the report's header", async () => {
    const out = path.join(directory.path, 'ab.html');
    expect((await runCli(['report', runA, runB, '--out', out])).exitCode).toBe(0);
    const html = await readFile(out, 'utf8');
    const header = html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
    expect(header).toContain('scripted: backend docker, runtime runsc');
    expect(header).toContain('llm: backend docker, runtime runc');
    const markdown = (await runCli(['report', runA, runB, '--format', 'md'])).stdout;
    expect(markdown).toContain('`scripted`: backend docker, runtime runsc');
    const json = JSON.parse((await runCli(['report', runA, '--format', 'json'])).stdout);
    expect(json.rows[0]).toMatchObject({ backend: 'docker', runtime: 'runsc' });
  });
});

describe('reading a comparison (issue 27, item 10)', () => {
  async function changedSection(args: string[], file: string): Promise<string> {
    const out = path.join(directory.path, file);
    expect((await runCli([...args, '--out', out])).exitCode).toBe(0);
    const html = await readFile(out, 'utf8');
    const start = html.indexOf('<section id="b-vs-a"');
    return html.slice(start, html.indexOf('</section>', start));
  }

  it.each([
    ['ab compare --format html', ['compare', '--format', 'html'], 'compare.html'],
    ['ab report A B', ['report'], 'report.html'],
  ])('%s: nine identical regressions are one row with a count naming each model and repeat', async (_name, command, file) => {
    const section = await changedSection([...command, runA, runB], file);
    expect(section.match(/data-testid="changed-task"/g)).toHaveLength(1);
    expect(section).toContain('<span class="count" data-testid="changed-count">9×</span>');
    expect(section).toContain(`<span class="small" data-testid="changed-attempts">A scripted → B ${MODEL} #2–#10</span>`);
  });

  it.each([
    ['ab compare --format html', ['compare', '--format', 'html'], 'compare.html'],
    ['ab report A B', ['report'], 'report.html'],
  ])("%s: an apply_patch argument is a diff, unescaped, lines marked, the agent's text escaped as HTML", async (_name, command, file) => {
    const section = await changedSection([...command, runA, runB], file);
    const diff = section.slice(section.indexOf('data-testid="patch-diff"'), section.indexOf('</pre>', section.indexOf('data-testid="patch-diff"')));
    expect(diff).toContain('<span class="line-meta">--- a/src/toy_calc/stats.py\n</span>');
    expect(diff).toContain('<span class="line-hunk">@@ -1,2 +1,2 @@\n</span>');
    expect(diff).toContain('<span class="line-del">-    return &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;\n</span>');
    expect(diff).toContain('<span class="line-add">+    return sorted(values)[len(values) // 2]\n</span>');
    expect(section).not.toContain('\\n');
    expect(section).not.toContain('<script>');
  });
});
