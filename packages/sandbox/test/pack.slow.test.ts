// SLOW (about a minute): builds the package (unless its dist is newer than its sources), packs it as it would be published, installs
// the tarball with npm into a throwaway project outside the repository and runs a script
// there that uses the public API only. Catches what unit tests cannot: a missing export,
// a file left out of `files`, a `workspace:` dependency, a source-only export condition.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Dockerode from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../../test-support/ensure-built.js';

const run = promisify(execFile);
const packageFolder = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = resolve(packageFolder, '../..');
const RUNNER_IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';
const temporaryFolders: string[] = [];

afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function dockerSkipReason(): Promise<string | undefined> {
  const docker = new Dockerode();
  try {
    await docker.ping();
    await docker.getImage(RUNNER_IMAGE).inspect();
    return undefined;
  } catch (error) {
    const reason = `Docker engine or image ${RUNNER_IMAGE} unavailable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    if (process.env['AGENTBENCH_REQUIRE_DOCKER'] === '1') throw new Error(`AGENTBENCH_REQUIRE_DOCKER=1 but ${reason}`);
    return reason;
  }
}

const SMOKE_SCRIPT = `
import * as sandboxPackage from '@agentbench/sandbox';
const { LocalSandbox, DockerSandbox, createSandbox, EXIT_CODE_TIMEOUT, SandboxError, resolveWorkspacePath } = sandboxPackage;
const report = { exports: Object.keys(sandboxPackage).sort() };

const local = await LocalSandbox.create({ files: { 'greeting.txt': 'hello from the packed package' } }, { isWarningSilenced: true });
try {
  report.local = await local.exec('cat greeting.txt; echo; echo "$((6 * 7))"');
  report.localTimeout = (await local.exec(['sleep', '30'], { timeoutSec: 1 })).exitCode === EXIT_CODE_TIMEOUT;
} finally {
  await local.dispose();
}
try {
  resolveWorkspacePath('/workspace', '../etc/passwd');
} catch (error) {
  report.pathEscape = SandboxError.isInstance(error) ? error.kind : 'not a SandboxError';
}
if (process.env.SMOKE_DOCKER_IMAGE) {
  // Plain JavaScript on Node 20 has no \`await using\`: Symbol.asyncDispose is what it would call.
  const docker = await DockerSandbox.create({ image: process.env.SMOKE_DOCKER_IMAGE, labels: { runId: 'pack-test' } });
  try {
    report.docker = await docker.exec('echo hello from docker; python3 -c "print(6 * 7)"');
  } finally {
    await docker[Symbol.asyncDispose]();
  }
  const viaFactory = await createSandbox('docker', { image: process.env.SMOKE_DOCKER_IMAGE, labels: { runId: 'pack-test' } });
  try {
    report.dockerFactory = (await viaFactory.exec(['echo', 'factory'])).stdout;
  } finally {
    await viaFactory.dispose();
  }
}
console.log(JSON.stringify(report));
`;

describe('@agentbench/sandbox as published (slow: build, pnpm pack, npm install)', () => {
  it('installs from its tarball and runs commands through the public API only', { timeout: 900_000 }, async () => {
    const skipDocker = await dockerSkipReason();
    if (skipDocker !== undefined) console.warn(`[partly skipped] pack.test.ts: DockerSandbox part skipped: ${skipDocker}`);

    ensureBuilt(packageFolder, '@agentbench/sandbox');

    const work = await realpath(await mkdtemp(join(tmpdir(), 'agentbench-pack-test-')));
    temporaryFolders.push(work);
    expect(work.startsWith(repositoryRoot)).toBe(false);
    const tarballs = join(work, 'tarballs');
    // Workspace packages it depends on at run time are packed too (npm cannot fetch them).
    const manifest = JSON.parse(await readFile(join(packageFolder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const workspaceDependencies = Object.entries(manifest.dependencies ?? {})
      .filter(([, range]) => range.startsWith('workspace:'))
      .map(([name]) => name);
    for (const name of ['@agentbench/sandbox', ...workspaceDependencies]) {
      // Workspace packages live in packages/<name without its scope>.
      if (name !== '@agentbench/sandbox') ensureBuilt(join(repositoryRoot, 'packages', name.replace(/^@agentbench\//, '')), name);
      await run('pnpm', ['--filter', name, 'pack', '--pack-destination', tarballs], { cwd: repositoryRoot, maxBuffer: 64 * 1024 * 1024 });
    }
    const tarballFiles = (await readdir(tarballs)).filter((file) => file.endsWith('.tgz'));
    expect(tarballFiles.length).toBe(1 + workspaceDependencies.length);

    const project = join(work, 'project');
    await run('mkdir', ['-p', project]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'pack-smoke', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballFiles.map((file) => join(tarballs, file))], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    });

    const installed = JSON.parse(await readFile(join(project, 'node_modules', '@agentbench', 'sandbox', 'package.json'), 'utf8')) as {
      exports: Record<string, Record<string, string>>;
      dependencies: Record<string, string>;
    };
    // The published manifest resolves to dist only, and names no workspace: range.
    expect(installed.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(JSON.stringify(installed.dependencies)).not.toContain('workspace:');
    expect((await readdir(join(project, 'node_modules', '@agentbench', 'sandbox'))).sort()).toEqual(['README.md', 'dist', 'package.json']);

    await writeFile(join(project, 'smoke.mjs'), SMOKE_SCRIPT);
    const environment: NodeJS.ProcessEnv = { ...process.env };
    if (skipDocker === undefined) environment['SMOKE_DOCKER_IMAGE'] = RUNNER_IMAGE;
    const { stdout } = await run('node', ['smoke.mjs'], { cwd: project, env: environment, timeout: 300_000 });
    const report = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;

    expect(report['exports']).toEqual(expect.arrayContaining(['LocalSandbox', 'BwrapSandbox', 'DockerSandbox', 'createSandbox', 'ensureRootfs']));
    expect(report['local']).toMatchObject({ exitCode: 0, stdout: 'hello from the packed package\n42\n', timedOut: false });
    expect(report['localTimeout']).toBe(true);
    expect(report['pathEscape']).toBe('path_escape');
    if (skipDocker === undefined) {
      expect(report['docker']).toMatchObject({ exitCode: 0, stdout: 'hello from docker\n42\n' });
      expect(report['dockerFactory']).toBe('factory\n');
    }
  });
});
