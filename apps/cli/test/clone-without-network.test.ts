import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyEnvironment } from '@agentbench/scenario-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { createTemporaryDirectory, type TemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { runCli } from './run-cli.js';

const sample = path.join(repositoryRoot, 'packages/swebench/test/fixtures/swe-bench-lite-sample.jsonl');

// Issue 27, item 9: an imported SWE-bench task (repo.url on github.com) validated on a machine
// without a network. The clone's failure is the machine's: errored, with the ways out, not INVALID.
describe('validate-suite of an imported suite without a network', () => {
  let scratch: TemporaryDirectory;
  let restoreEnvironment: () => void;
  beforeAll(async () => {
    scratch = await createTemporaryDirectory();
    restoreEnvironment = applyEnvironment({
      // No network, whatever the machine has: git (curl) sends every https request to a closed port.
      https_proxy: 'http://127.0.0.1:1',
      HTTPS_PROXY: 'http://127.0.0.1:1',
      no_proxy: '',
      NO_PROXY: '',
      // An empty repository cache, so no earlier clone serves the commit.
      AGENTBENCH_CACHE_DIR: path.join(scratch.path, 'cache'),
      AGENTBENCH_GIT_MIRRORS: '',
      // The clone fails before any sandbox: no engine is needed (nor used).
      DOCKER_HOST: `unix://${path.join(scratch.path, 'no-engine.sock')}`,
    });
  });
  afterAll(async () => {
    restoreEnvironment();
    await scratch.remove();
  });

  it('counts the task as errored, not invalid, and suggests a mirror or a local clone', async () => {
    const imported = await runCli(['import-swebench', sample, '--out', path.join(scratch.path, 'tasks/swe-lite'), '--filter', 'pytest-dev__pytest-11143']);
    expect(imported.exitCode).toBe(0);
    const out = path.join(scratch.path, 'out');
    const result = await runCli(['validate-suite', 'swe-lite', '--tasks', path.join(scratch.path, 'tasks'), '--out', out, '-j', '1']);
    expect(result.stdout).toMatch(/pytest-dev__pytest-11143 +ERROR +GIT_CLONE_FAILED/);
    expect(result.stdout).toContain('0 valid, 0 invalid, 1 errored');
    expect(result.stdout).toContain("no network (not the task's fault): use a mirror (AGENTBENCH_GIT_MIRRORS or git.mirrors in agentbench.config.json) or a local clone as repo.url");
    expect(result.exitCode).toBe(1);
    const runDir = /run: (\S+)/.exec(result.stdout)?.[1] as string;
    const record = JSON.parse((await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim()) as Record<string, unknown>;
    expect(record).toMatchObject({ failure_class: 'infra', failure_stage: 'git_clone' });
    expect(record['failure_cause']).toMatch(/^the network is unreachable \(git: Failed to connect to 127\.0\.0\.1 port 1[^)]*\): the machine's, not the task's$/);
  });
});
