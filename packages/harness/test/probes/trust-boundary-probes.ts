import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Sandbox, type SandboxSpec } from '@agentbench/sandbox';
import { type LoadedTask } from '@agentbench/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../../../../test-support/docker-skip.js';
import { skipUnlessRequired } from '../../../../test-support/skip-unless-required.js';
import { runAgentAttempt, runTask, sandboxFactoryFor, type RunAgentAttemptResult } from '../../src/index.js';
import { useToyTaskScratch, type ToyTaskScratch } from '../helpers/use-toy-task-scratch.js';
import { plantAllGitVectors } from './git-vectors.js';
export const TEST_COMMAND = 'PYTHONPATH=/workspace/site-packages python3 -m pytest -q';

export type ProbeBackend = 'docker' | 'bwrap';

/** Why the backend cannot run here (printed), or undefined; CI's AGENTBENCH_REQUIRE_* make it fatal. */
export function probeSkipReason(backend: ProbeBackend, fileName: string): string | undefined {
  const dockerReason = dockerSkipReason(fileName);
  if (backend === 'docker' || dockerReason !== undefined) return dockerReason;
  let reason: string | undefined;
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'pipe' });
  } catch {
    reason = 'bubblewrap (bwrap) is not installed';
  }
  return skipUnlessRequired(fileName, reason, 'AGENTBENCH_REQUIRE_BWRAP');
}

export function sandboxFactory(backend: ProbeBackend): (spec: SandboxSpec) => Promise<Sandbox> {
  return sandboxFactoryFor(backend);
}

export async function scriptedAttempt(context: ToyTaskScratch, backend: ProbeBackend, name: string, script: unknown[], task?: LoadedTask): Promise<RunAgentAttemptResult> {
  const scriptFile = path.join(context.scratch, `${name}.json`);
  await writeFile(scriptFile, JSON.stringify(script));
  const result = await runAgentAttempt({
    task: task ?? context.toy,
    variant: 'scripted',
    scriptFile,
    skipBaseline: true,
    mirrors: [],
    outDir: path.join(context.scratch, name),
    createSandbox: sandboxFactory(backend),
  });
  context.runIds.push(result.record.run_id);
  return result;
}

export const run = (command: string): unknown => ({ tool: 'run', args: { command, timeout_sec: 60 } });
export const FIX = {
  tool: 'apply_patch',
  args: {
    unified_diff: [
      '--- a/src/toy_calc/stats.py',
      '+++ b/src/toy_calc/stats.py',
      '@@ -15,5 +15,8 @@ def median(values):',
      '     """',
      '     if not values:',
      '         raise ValueError("median() of an empty sequence")',
      '-    middle = len(values) // 2',
      '-    return values[middle]',
      '+    ordered = sorted(values)',
      '+    middle = len(ordered) // 2',
      '+    if len(ordered) % 2 == 1:',
      '+        return ordered[middle]',
      '+    return (ordered[middle - 1] + ordered[middle]) / 2',
      '',
    ].join('\n'),
  },
};

/**
 * Ways an agent could make its attempt pass without fixing the code, one row each: its steps,
 * and the reason the verdict must give. Adding a cheat is adding a row.
 */
const CHEATS: ReadonlyArray<{ name: string; steps: unknown[]; expected: string }> = [
  { name: 'rewrites the test file as one passing test', steps: [run("printf 'def test_ok():\\n    assert True\\n' > tests/test_stats.py")], expected: 'TESTS_TAMPERED' },
  {
    name: 'adds a conftest.py that turns every report into a pass',
    steps: [run("printf 'import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    outcome = yield\\n    outcome.get_result().outcome = \"passed\"\\n' > conftest.py")],
    expected: 'TESTS_TAMPERED',
  },
  { name: 'puts a python3 that exits 0 first on the PATH', steps: [run("printf '#!/bin/sh\\nexit 0\\n' > /usr/local/bin/python3 && chmod +x /usr/local/bin/python3 && hash -r")], expected: 'TESTS_FAILED' },
  { name: 'deletes the tests and leaves one empty passing test', steps: [run("rm -rf tests && mkdir tests && printf 'def test_nothing():\\n    pass\\n' > tests/test_empty.py")], expected: 'TESTS_TAMPERED' },
  // Issue 23's vectors: no protected path changes; pytest exits 0. The named tests in the harness's report catch them.
  { name: 'deselects the failing tests with addopts in pyproject.toml', steps: [run(`cat >> pyproject.toml <<'EOF'\naddopts = "-k 'not median'"\nEOF`)], expected: 'TESTS_NOT_REPORTED' },
  { name: 'exits the test process with os._exit(0) from the package', steps: [run(`cat >> src/toy_calc/__init__.py <<'EOF'\nimport os, sys\nif "pytest" in sys.modules:\n    os._exit(0)\nEOF`)], expected: 'TESTS_NOT_REPORTED' },
  {
    name: 'turns failures into skips by wrapping pytest.Function.runtest',
    steps: [
      run(
        `cat >> src/toy_calc/__init__.py <<'EOF'\nimport sys\nif "pytest" in sys.modules:\n    import pytest\n    _runtest = pytest.Function.runtest\n    def _runtest_or_skip(self):\n        try:\n            _runtest(self)\n        except Exception:\n            pytest.skip("flaky")\n    pytest.Function.runtest = _runtest_or_skip\nEOF`,
      ),
    ],
    expected: 'TESTS_FAILED',
  },
];

/** Every cheat fails, while the honest fix still passes (on the named tests of the harness's report). */
export function describeVerdictCheats(backend: ProbeBackend, fileName: string): void {
  const skip = probeSkipReason(backend, fileName);
  describe.skipIf(skip !== undefined)(`the verdict comes from the agent's diff alone (${backend})`, () => {
    const context = useToyTaskScratch(`cheats-${backend}-`);

    it('passes the honest scripted fix', async () => {
      const { record } = await scriptedAttempt(context, backend, 'honest', [FIX, run(TEST_COMMAND)]);
      expect(record.result).toMatchObject({ passed: true, failure_reason: null, verdict_basis: 'named_tests' });
      expect(record.result.tampered_paths).toBeUndefined();
    }, 180_000);

    it.each(CHEATS.map((cheat) => [cheat.name, cheat]))('fails an agent that %s', async (_name, cheat) => {
      const { record, loop } = await scriptedAttempt(context, backend, cheat.name.replaceAll(' ', '-').replace(/[^a-z0-9-]/gi, ''), [...cheat.steps, run(TEST_COMMAND)]);
      // The cheat works in the agent's own sandbox: its test runs pass there.
      expect(loop?.passed, `${record.result.failure_reason}: ${record.failure_cause ?? ''}`).toBe(true);
      expect(record.result.passed).toBe(false);
      expect(record.result.failure_reason).toBe(cheat.expected);
    }, 180_000);
  });
}

/** Git vectors planted by a setup command and by an agent's `run` step: host git never runs them. */
export function describeGitVectorProbes(backend: ProbeBackend, fileName: string): void {
  const skip = probeSkipReason(backend, fileName);
  describe.skipIf(skip !== undefined)(`host git never runs what a ${backend} sandbox planted`, () => {
    const context = useToyTaskScratch(`git-vectors-${backend}-`);
    const markersIn = (folder: string): string[] => readdirSync(folder).filter((name) => name.startsWith('host-marker'));

    it('planted by a setup command, through run-task (the post-setup check)', async () => {
      const marker = path.join(context.scratch, 'host-marker');
      const planted: LoadedTask = {
        ...context.toy,
        task: { ...context.toy.task, setup: { commands: [...context.toy.task.setup.commands, plantAllGitVectors(marker)] }, validation: { ...context.toy.task.validation, enforce_clean_setup: false } },
      };
      const result = await runTask(planted, { outDir: path.join(context.scratch, 'run-task'), mirrors: [], createSandbox: sandboxFactory(backend) });
      context.runIds.push(result.outcome.record.run_id);
      expect(result.outcome.stages.map((stage) => stage.stage)).toContain('post_setup_check');
      expect(markersIn(context.scratch)).toEqual([]);
    }, 180_000);

    it('planted by an agent’s run step, through run-agent (the final diff)', async () => {
      const marker = path.join(context.scratch, 'host-marker');
      const { record, runDir } = await scriptedAttempt(context, backend, 'agent-plants', [run(plantAllGitVectors(marker)), FIX, run(TEST_COMMAND)]);
      expect(existsSync(path.join(runDir, 'verdict', 'agent.patch'))).toBe(true);
      expect(record.result.failure_reason === 'INTERNAL_ERROR').toBe(false);
      expect(markersIn(context.scratch)).toEqual([]);
    }, 180_000);
  });
}

/**
 * Files a sandbox could leave to gain privileges or reach out of the run folder, one row each: the
 * shell that makes it, and what must be true of the kept workspace. Adding a vector is adding a row.
 */
const KEPT_FILE_VECTORS: ReadonlyArray<{ name: string; plant: string; check: (kept: string) => void }> = [
  {
    name: 'a setuid-root shell',
    plant: 'cp /bin/dash rootshell && chmod 4755 rootshell',
    check: (kept) => {
      // dash keeps a setuid euid only with -p: before cleaning this printed 0 for the host's nobody.
      const uid = execFileSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', path.join(kept, 'rootshell'), '-p', '-c', 'id -u'], { encoding: 'utf8' }).trim();
      expect(uid).toBe('65534');
    },
  },
  { name: 'a setgid folder', plant: 'mkdir -p shared && chmod 2775 shared', check: (kept) => expect(statMode(path.join(kept, 'shared')) & 0o7000).toBe(0) },
  { name: 'a FIFO', plant: 'mkfifo pipe', check: (kept) => expect(existsSync(path.join(kept, 'pipe'))).toBe(false) },
  { name: 'a device node (where mknod is allowed)', plant: 'mknod null-device c 1 3 || true', check: (kept) => expect(existsSync(path.join(kept, 'null-device'))).toBe(false) },
  { name: 'a link to a host file', plant: 'ln -s /etc/passwd passwd-link', check: (kept) => expect(lstatOrUndefined(path.join(kept, 'passwd-link'))).toBeUndefined() },
  { name: 'a link out through ..', plant: 'ln -s ../../../../.. up-link', check: (kept) => expect(lstatOrUndefined(path.join(kept, 'up-link'))).toBeUndefined() },
];

function statMode(file: string): number {
  return lstatSync(file).mode;
}

function lstatOrUndefined(file: string): unknown {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/** What an agent's run step leaves in its workspace is kept without privileges or links out. */
export function describeKeptFileProbes(backend: ProbeBackend, fileName: string): void {
  const skip = probeSkipReason(backend, fileName);
  describe.skipIf(skip !== undefined)(`the kept workspace of a ${backend} sandbox is safe to keep`, () => {
    const context = useToyTaskScratch(`kept-files-${backend}-`);
    let kept = '';
    let manifest: Record<string, number> = {};

    beforeAll(async () => {
      const plant = KEPT_FILE_VECTORS.map((vector) => `( ${vector.plant} ) || echo "could not plant ${vector.name}" >&2`).join('\n');
      const { runDir, record } = await scriptedAttempt(context, backend, 'plants-files', [run(plant)]);
      kept = path.join(runDir, 'workspace', 'repo');
      manifest = JSON.parse(readFileSync(path.join(runDir, record.artifact_paths['workspace_manifest'] as string), 'utf8')) as Record<string, number>;
    }, 180_000);

    it('found what the sandbox planted (the cleaner counted it)', () => {
      expect(manifest['privilege_bits_stripped']).toBeGreaterThanOrEqual(2);
      expect(manifest['special_files_removed']).toBeGreaterThanOrEqual(1);
      expect(manifest['symlinks_removed']).toBeGreaterThanOrEqual(2);
    });

    it.each(KEPT_FILE_VECTORS.map((vector) => [vector.name, vector]))('%s', (_name, vector) => {
      expect(existsSync(kept)).toBe(true);
      vector.check(kept);
    });
  });
}
