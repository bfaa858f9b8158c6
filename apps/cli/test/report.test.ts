import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportServer } from '@agentbench/report';
import { writeAgentRun, writeScenarioRun, writeSuiteRun } from '../../../packages/report/test/helpers/write-artifacts.js';
import { runCli } from './run-cli.js';

let root: string;
let suiteDir: string;
let agentsDir: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ab-cli-report-'));
  suiteDir = await writeSuiteRun(path.join(root, 'suite'));
  agentsDir = path.join(root, 'agents');
  await writeAgentRun(agentsDir);
  await writeScenarioRun(agentsDir);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('ab report', () => {
  it('writes report.html into the first run folder by default and warns about skipped lines', async () => {
    const run = await runCli(['report', suiteDir, agentsDir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(`wrote ${path.join(suiteDir, 'report.html')} (html: 4 rows, 2 passed, from 2 run folder(s))\n`);
    expect(run.stderr).toContain(`warning: ${path.join(suiteDir, 'attempts.jsonl')}:3: incomplete last line`);
    const html = await readFile(path.join(suiteDir, 'report.html'), 'utf8');
    expect(html).toContain('<script type="application/json" id="report-data">');
    // Links are relative to the report's folder.
    expect(html).toContain('"file":"logs/toy_fail/run.log"');
  });

  it('prints Markdown, JSON and JUnit to stdout', async () => {
    const markdown = await runCli(['report', suiteDir, '--format', 'md']);
    expect(markdown.stdout).toMatch(/^## AgentBench report\n/);
    const json = await runCli(['report', agentsDir, '--format', 'json']);
    expect(JSON.parse(json.stdout).summary.overall.attempts).toBe(2);
    const junit = await runCli(['report', agentsDir, '--format', 'junit', '--out', path.join(root, 'junit.xml')]);
    expect(junit.exitCode).toBe(0);
    expect(await readFile(path.join(root, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('explains a folder without artifacts in one line', async () => {
    const run = await runCli(['report', root + '/nothing-here']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`ab: ${root}/nothing-here: no such folder\n`);
  });
});

describe('ab view', () => {
  it('serves the report on 127.0.0.1 until stopped', async () => {
    const { viewEvents } = await import('../src/commands/view.js');
    let page = '';
    viewEvents.once('listening', (server: ReportServer) => {
      void (async () => {
        page = await (await fetch(server.url)).text();
        await server.close();
      })();
    });
    const run = await runCli(['view', agentsDir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^serving the report of .* at http:\/\/127\.0\.0\.1:\d+\/ \(read-only; Ctrl\+C to stop\)\n$/);
    expect(page).toContain('Support chat');
  });
});
