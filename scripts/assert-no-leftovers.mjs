#!/usr/bin/env node
// Runs after the whole test run: no container and no image labelled as ours may be left behind.
// Fails the run (and removes them) if any is found, so a hole in a cleanup path shows.
// Each leftover is described (name or tag, image, state, our labels) so the leaking test can be found from the CI log alone.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What `ab cleanup` removes as containers: `listManagedContainers` in packages/sandbox/src/docker/managed-containers.ts. */
export const CONTAINER_LABEL_FILTERS = ['dev.agentbench.managed=true'];
/**
 * What `ab cleanup` removes as images: `listManagedImages` in packages/sandbox/src/docker/managed-images.ts, the
 * commits AgentBench makes (sandbox snapshots, gVisor runtime moves) carrying the sandbox's labels and
 * `committed-from`. The images scripts/setup.sh builds (agentbench/py-runner, …) carry neither label.
 */
export const IMAGE_LABEL_FILTERS = ['dev.agentbench.managed=true', 'dev.agentbench.committed-from'];

const filterArgs = (labels) => labels.flatMap((label) => ['--filter', `label=${label}`]);

/** Runs the docker CLI: `{ status, stdout }`, status null when docker could not be started. */
function dockerCli(args) {
  const result = spawnSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return { status: result.error ? null : result.status, stdout: result.stdout ?? '' };
}

function ourLabels(labels) {
  return Object.entries(labels ?? {})
    .filter(([key]) => key.startsWith('dev.agentbench.'))
    .map(([key, value]) => `${key.slice('dev.agentbench.'.length)}=${value}`)
    .join(' ');
}

function idsIn(stdout) {
  return [...new Set(stdout.split('\n').map((line) => line.trim()).filter(Boolean))];
}

/** One line per leftover, from `docker inspect` (a leftover gone meanwhile is named by its id alone). */
function describeAll(docker, kind, ids, describeOne) {
  const inspected = docker([kind === 'image' ? 'image' : 'container', 'inspect', ...ids]);
  let described = [];
  try {
    described = inspected.status === 0 ? JSON.parse(inspected.stdout).map(describeOne) : [];
  } catch {
    // Unreadable output: the ids below still say what was left.
  }
  return described.length > 0 ? described : ids;
}

function describeContainer(c) {
  const mounts = (c.Mounts ?? []).map((m) => m.Source).join(',');
  return `${c.Id.slice(0, 12)} ${c.Name} image=${c.Config?.Image} state=${c.State?.Status} created=${c.Created} ${ourLabels(c.Config?.Labels)}${mounts ? ` mounts=${mounts}` : ''}`;
}

function describeImage(image) {
  const tags = (image.RepoTags ?? []).join(',') || '<untagged>';
  return `${image.Id.replace(/^sha256:/, '').slice(0, 12)} ${tags} created=${image.Created} ${ourLabels(image.Config?.Labels)}`;
}

/**
 * Checks the engine for our leftovers, reports and removes them (containers first: a leftover container pins its
 * image). Returns the exit code: 1 when anything was left; when docker does not answer, 0, or 1 if it is required.
 */
export function assertNoLeftovers({ docker = dockerCli, log = console.log, warn = console.error, requireDocker = process.env.AGENTBENCH_REQUIRE_DOCKER === '1' } = {}) {
  const containers = docker(['ps', '-aq', ...filterArgs(CONTAINER_LABEL_FILTERS)]);
  if (containers.status !== 0) {
    log('[leftovers] docker not reachable: nothing to check');
    return requireDocker ? 1 : 0;
  }
  const images = docker(['images', '-q', '--no-trunc', ...filterArgs(IMAGE_LABEL_FILTERS)]);
  if (images.status !== 0) {
    warn('[leftovers] could not list images');
    return 1;
  }
  const containerIds = idsIn(containers.stdout);
  const imageIds = idsIn(images.stdout);
  if (containerIds.length === 0 && imageIds.length === 0) {
    log('[leftovers] no AgentBench container or image left');
    return 0;
  }
  if (containerIds.length > 0) {
    warn(`[leftovers] ${containerIds.length} AgentBench container(s) left after the tests: ${containerIds.join(' ')}; removing them`);
    for (const line of describeAll(docker, 'container', containerIds, describeContainer)) warn(`[leftovers]   ${line}`);
    docker(['rm', '-f', ...containerIds]);
  }
  if (imageIds.length > 0) {
    warn(`[leftovers] ${imageIds.length} AgentBench image(s) left after the tests (snapshots or gVisor moves); removing them`);
    for (const line of describeAll(docker, 'image', imageIds, describeImage)) warn(`[leftovers]   ${line}`);
    docker(['rmi', '-f', ...imageIds]);
  }
  return 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = assertNoLeftovers();
}
