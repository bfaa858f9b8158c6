import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgentAttempt } from '@agentbench/harness';
import { requestedModel, startFakeLlmServer, type FakeLlmServer } from '@agentbench/fake-llm-server';
import { listManagedContainers } from '@agentbench/sandbox';
import { runScenario } from '@agentbench/scenario-runner';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateReport } from '../src/index.js';
import { dockerSkipReason } from '../../../test-support/docker-skip.js';
import { skipUnlessRequired } from '../../../test-support/skip-unless-required.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageDir, '../..');
const IMAGE = 'agentbench/py-runner:0.1.0';
const CHROMIUM = '/usr/bin/chromium';
// Debian's chromium driven by playwright-core: never a downloaded browser.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const skip =
  dockerSkipReason('html-report.docker.test.ts', IMAGE) ??
  skipUnlessRequired('html-report.docker.test.ts', existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not installed (scripts/setup.sh --with-test-tools)`, 'AGENTBENCH_REQUIRE_TOOLS');

describe.skipIf(skip !== undefined)('the HTML report of real runs, in headless Chromium', () => {
  let scratch: string;
  let artifacts: string;
  let reportFile: string;
  let browser: Browser | undefined;
  const runIds: string[] = [];

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/build-fixture-repos.mjs'), '--quiet'], { stdio: 'pipe' });
    scratch = await mkdtemp(path.join(tmpdir(), 'ab-report-browser-'));
    artifacts = path.join(scratch, 'artifacts');
    const task: LoadedTask = await loadTask(path.join(repoRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml'));
    const patch = task.agentScript?.find((step) => step.tool === 'apply_patch')?.args['unified_diff'] as string;

    // 1. The scripted agent fixes the toy task.
    const scripted = await runAgentAttempt({ task, skipBaseline: true, variant: 'scripted', outDir: artifacts });
    runIds.push(scripted.record.run_id);

    // 2. An LLM agent (fake server) fixes it; 3. another one wanders off and runs out of steps.
    let server: FakeLlmServer | undefined;
    try {
      server = await startFakeLlmServer({
        script: (request) => {
          const model = requestedModel(request);
          const calls = server?.requests.filter((earlier) => earlier.index < request.index && requestedModel(earlier) === model).length ?? 0;
          if (model === 'fake-model-a') {
            return calls === 0
              ? { toolCalls: [{ name: 'read_file', arguments: { path: 'src/toy_calc/stats.py' } }], usage: { prompt_tokens: 1500, completion_tokens: 30 } }
              : { text: 'median() must sort and average the middle pair.', toolCalls: [{ name: 'apply_patch', arguments: { unified_diff: patch } }], usage: { prompt_tokens: 2100, completion_tokens: 180 } };
          }
          if (model === 'fake-model-b') return { text: 'Let me look around first.', toolCalls: [{ name: 'list_files', arguments: { root: '.' } }] };
          // The conversation scenario's three roles.
          const body = request.body as { messages: Array<{ role: string; content: string | null }> };
          const userTurns = body.messages.filter((message) => message.role === 'user').length;
          const simulatorTurn = server?.requests.filter((earlier) => earlier.index < request.index && requestedModel(earlier) === 'simulator-model').length ?? 0;
          if (model === 'agent-model') return userTurns === 1 ? 'Sorry about that. What is your order number?' : userTurns === 2 ? 'Thanks. I refunded the duplicate charge on order 1234.' : "You're welcome!";
          if (model === 'simulator-model') return simulatorTurn === 0 ? 'It is order 1234.' : 'Thank you, that is resolved now!';
          if (model === 'judge-model') return { text: JSON.stringify({ judgment: 'yes', confidence: 0.9, reasoning: 'The refund was confirmed.' }) };
          return undefined;
        },
      });
      const environment = (model: string): NodeJS.ProcessEnv => ({ OPENAI_BASE_URL: server!.url, OPENAI_API_KEY: 'test-key', MODEL_NAME: model });
      const fixed = await runAgentAttempt({ task, skipBaseline: true, variant: 'llm', environment: environment('fake-model-a'), outDir: artifacts });
      runIds.push(fixed.record.run_id);
      const gaveUp = await runAgentAttempt({ task, skipBaseline: true, variant: 'llm', maxSteps: 1, environment: environment('fake-model-b'), outDir: artifacts });
      runIds.push(gaveUp.record.run_id);
      expect([scripted.record.result.passed, fixed.record.result.passed, gaveUp.record.result.passed]).toEqual([true, true, false]);
      expect(fixed.record.metrics?.steps).toBe(2);

      // 4. A conversation scenario with a simulated user and an LLM judge.
      const scenario = await runScenario(path.join(repoRoot, 'fixtures/scenarios/conversation-satisfaction.scenario.yaml'), {
        llm: {
          agent: { baseURL: server.url, model: 'agent-model', maxRetries: 0, apiKey: 'test-key' },
          simulator: { baseURL: server.url, model: 'simulator-model', maxRetries: 0, apiKey: 'test-key' },
          judge: { baseURL: server.url, model: 'judge-model', noCache: true, maxRetries: 0, apiKey: 'test-key' },
        },
        outDir: path.join(artifacts, 'scenarios', 'billing-conversation'),
      });
      expect(scenario.errors).toEqual([]);
    } finally {
      await server?.close();
    }
    reportFile = path.join(scratch, 'report.html');
    await generateReport({ runDirs: [artifacts], format: 'html', outFile: reportFile });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // Four real runs (three in containers) on two shared cores.
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    const left = (await Promise.all(runIds.map((runId) => listManagedContainers({ runId })))).flat();
    await rm(scratch, { recursive: true, force: true });
    expect(left.map((container) => container.name), 'containers left behind').toEqual([]);
  });

  it('shows every attempt, filters by failure reason, opens a timeline and a diff, without any network', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
    const pageErrors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${reportFile}`);

    const rows = page.getByTestId('attempt-row');
    await expect.poll(() => rows.count()).toBe(4);
    expect(await page.locator('#attempts-count').textContent()).toBe('Showing 4 of 4');
    const tasks = await rows.locator('td:first-child').allTextContents();
    expect(tasks.sort()).toEqual(['Billing conversation that ends when the user is satisfied', 'toy_fail_pytest', 'toy_fail_pytest', 'toy_fail_pytest']);

    // Filter by failure reason: only the run that ran out of steps is left.
    await page.getByTestId('filter-failure').selectOption('AGENT_GAVE_UP');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('fake-model-b');
    await page.getByTestId('filter-failure').selectOption('');
    await expect.poll(() => rows.count()).toBe(4);

    // The scripted attempt: its timeline lists each tool call; the patch step shows its arguments; the diff is rendered.
    await rows.filter({ hasText: 'scripted' }).click();
    const detail = page.getByTestId('attempt-detail');
    await expect.poll(() => detail.count()).toBe(1);
    const entries = detail.getByTestId('timeline-entry');
    const titles = await entries.locator('summary').allTextContents();
    for (const tool of ['list_files', 'read_file', 'search', 'apply_patch']) expect(titles.some((title) => title.includes(tool)), tool).toBe(true);
    const patchEntry = entries.filter({ has: page.locator('summary', { hasText: 'apply_patch' }) }).first();
    await patchEntry.locator('summary').click();
    expect(await patchEntry.locator('pre').first().textContent()).toContain('+    ordered = sorted(values)');
    const diff = detail.getByTestId('diff').first();
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator('.line-add').allTextContents()).toContain('+    ordered = sorted(values)\n');

    // The conversation: user and agent side by side.
    await rows.filter({ hasText: 'Billing conversation' }).click();
    const conversation = page.getByTestId('conversation');
    await expect.poll(() => conversation.count()).toBe(1);
    expect(await conversation.locator('.bubble.user').first().textContent()).toBe('Hi, I was charged twice this month.');
    expect(await conversation.locator('.bubble.agent').allTextContents()).toContain('Thanks. I refunded the duplicate charge on order 1234.');
    expect(await page.getByTestId('evaluations').first().textContent()).toContain('The refund was confirmed.');

    await mkdir(path.join(packageDir, 'test-artifacts'), { recursive: true });
    const screenshot = path.join(packageDir, 'test-artifacts', 'html-report.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
    expect(pageErrors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('file://') && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  }, 120_000);
});
