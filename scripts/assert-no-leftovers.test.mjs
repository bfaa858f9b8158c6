// Tests for assert-no-leftovers.mjs against a fake docker CLI that keeps containers and images and applies
// `--filter label=…` as the engine does (every label filter must match: `key` is present, `key=value` equals):
// our leftover containers and our images (snapshots, gVisor moves) fail the run and are removed, containers
// first; the images scripts/setup.sh builds and anybody else's containers and images are neither counted nor touched.
// Run: node --test scripts/assert-no-leftovers.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CONTAINER_LABEL_FILTERS, IMAGE_LABEL_FILTERS, assertNoLeftovers } from './assert-no-leftovers.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const SNAPSHOT_LABELS = {
  'dev.agentbench.managed': 'true',
  'dev.agentbench.run-id': 'run-1',
  'dev.agentbench.task-id': 'resume_b',
  'dev.agentbench.pid': '4242',
  'dev.agentbench.committed-from': 'agentbench-resume_b-1',
};

/** The images a fresh CI machine has after scripts/setup.sh (docker import / build: no labels of ours). */
function setupImages() {
  return [
    { Id: 'sha256:aaaa00000000runner', RepoTags: ['agentbench/py-runner:0.1.0'], Created: '2026-11-28T00:00:00Z', Config: { Labels: null } },
    // A user's commit of the README's export container: it has `managed` but no `committed-from`, and `ab cleanup` leaves it.
    { Id: 'sha256:bbbb00000000export', RepoTags: ['my/export:1'], Created: '2026-11-28T00:00:00Z', Config: { Labels: { 'dev.agentbench.managed': 'true' } } },
  ];
}

function matches(labels, filters) {
  return filters.every((filter) => {
    const [key, ...rest] = filter.split('=');
    if (!Object.hasOwn(labels ?? {}, key)) return false;
    return rest.length === 0 || labels[key] === rest.join('=');
  });
}

/** A docker CLI over these containers and images; `calls` records every command run. */
function fakeDocker({ containers = [], images = [], reachable = true } = {}) {
  const state = { containers: [...containers], images: [...images], calls: [] };
  const labelFilters = (args) => args.flatMap((arg, index) => (args[index - 1] === '--filter' && arg.startsWith('label=') ? [arg.slice('label='.length)] : []));
  const ok = (stdout = '') => ({ status: 0, stdout });
  state.docker = (args) => {
    state.calls.push(args.join(' '));
    if (!reachable) return { status: null, stdout: '' };
    const [command, ...rest] = args;
    if (command === 'ps') return ok(state.containers.filter((c) => matches(c.Config.Labels, labelFilters(rest))).map((c) => `${c.Id.slice(0, 12)}\n`).join(''));
    if (command === 'images') return ok(state.images.filter((image) => matches(image.Config.Labels, labelFilters(rest))).flatMap((image) => (image.RepoTags.length === 0 ? [image.Id] : image.RepoTags.map(() => image.Id))).map((id) => `${id}\n`).join(''));
    if (command === 'container' && rest[0] === 'inspect') return ok(JSON.stringify(state.containers.filter((c) => rest.slice(1).some((id) => c.Id.startsWith(id)))));
    if (command === 'image' && rest[0] === 'inspect') return ok(JSON.stringify(state.images.filter((image) => rest.slice(1).includes(image.Id))));
    if (command === 'rm') {
      const ids = rest.filter((arg) => arg !== '-f');
      state.containers = state.containers.filter((c) => !ids.some((id) => c.Id.startsWith(id)));
      return ok();
    }
    if (command === 'rmi') {
      const ids = rest.filter((arg) => arg !== '-f');
      // The engine refuses to remove an image a container still uses: the order of the removals matters.
      const pinned = ids.filter((id) => state.containers.some((c) => c.Image === id));
      if (pinned.length > 0) return { status: 1, stdout: '' };
      state.images = state.images.filter((image) => !ids.includes(image.Id));
      return ok();
    }
    throw new Error(`fake docker: unexpected command ${args.join(' ')}`);
  };
  return state;
}

function run(engine, options = {}) {
  const out = [];
  const code = assertNoLeftovers({ docker: engine.docker, log: (line) => out.push(line), warn: (line) => out.push(line), requireDocker: false, ...options });
  return { code, text: out.join('\n') };
}

describe('assert-no-leftovers', () => {
  it('passes with only the images setup.sh builds and containers that are not ours', () => {
    const engine = fakeDocker({
      images: setupImages(),
      containers: [{ Id: 'cccc00000000other', Name: '/someone-else', Image: 'sha256:aaaa00000000runner', Config: { Image: 'debian', Labels: { 'other.label': 'x' } }, State: { Status: 'running' } }],
    });
    const { code, text } = run(engine);
    assert.equal(code, 0, text);
    assert.match(text, /no AgentBench container or image left/);
    assert.equal(engine.images.length, 2);
    assert.equal(engine.containers.length, 1);
    assert.ok(!engine.calls.some((call) => /^(rm|rmi) /.test(call)), engine.calls.join('\n'));
  });

  it('fails on a snapshot image a killed run left, names its run and task, and removes only it', () => {
    const snapshot = { Id: 'sha256:dddd00000000snap', RepoTags: ['agentbench-snapshot:agentbench-resume_b-1-0a1b2c3d'], Created: '2026-11-28T03:00:00Z', Config: { Labels: SNAPSHOT_LABELS } };
    const engine = fakeDocker({ images: [...setupImages(), snapshot] });
    const { code, text } = run(engine);
    assert.equal(code, 1, text);
    assert.match(text, /1 AgentBench image\(s\) left/);
    assert.match(text, /agentbench-snapshot:agentbench-resume_b-1-0a1b2c3d/);
    assert.match(text, /run-id=run-1 task-id=resume_b/);
    assert.deepEqual(engine.images.map((image) => image.RepoTags[0]), ['agentbench/py-runner:0.1.0', 'my/export:1']);
  });

  it('counts an image with several tags once', () => {
    const moved = { Id: 'sha256:eeee00000000move', RepoTags: ['agentbench-runtime-move:a', 'agentbench-runtime-move:b'], Created: '2026-11-28T03:00:00Z', Config: { Labels: SNAPSHOT_LABELS } };
    const { code, text } = run(fakeDocker({ images: [moved] }));
    assert.equal(code, 1, text);
    assert.match(text, /1 AgentBench image\(s\) left/);
  });

  it('removes a leftover container before the image it was started from', () => {
    const snapshot = { Id: 'sha256:ffff00000000snap', RepoTags: ['agentbench-snapshot:x-1'], Created: '2026-11-28T03:00:00Z', Config: { Labels: SNAPSHOT_LABELS } };
    const verdict = { Id: '111100000000verdict', Name: '/agentbench-verdict', Image: snapshot.Id, Config: { Image: 'agentbench-snapshot:x-1', Labels: { 'dev.agentbench.managed': 'true', 'dev.agentbench.run-id': 'run-1' } }, State: { Status: 'running' }, Created: '2026-11-28T03:00:01Z' };
    const engine = fakeDocker({ images: [...setupImages(), snapshot], containers: [verdict] });
    const { code, text } = run(engine);
    assert.equal(code, 1, text);
    assert.match(text, /1 AgentBench container\(s\) left[^\n]*111100000000/);
    assert.match(text, /agentbench-verdict image=agentbench-snapshot:x-1 state=running/);
    assert.deepEqual(engine.containers, []);
    assert.deepEqual(engine.images.map((image) => image.RepoTags[0]), ['agentbench/py-runner:0.1.0', 'my/export:1']);
  });

  it('passes when docker does not answer, unless docker is required', () => {
    assert.equal(run(fakeDocker({ reachable: false })).code, 0);
    assert.equal(run(fakeDocker({ reachable: false }), { requireDocker: true }).code, 1);
  });

  it('asks for the labels packages/sandbox writes and `ab cleanup` looks for', () => {
    const labels = readFileSync(path.join(root, 'packages/sandbox/src/core/engine/labels.ts'), 'utf8');
    const committedFrom = readFileSync(path.join(root, 'packages/sandbox/src/docker/runtime-move-image.ts'), 'utf8');
    assert.match(labels, /LABEL_MANAGED = 'dev\.agentbench\.managed'/);
    assert.match(committedFrom, /LABEL_COMMITTED_FROM = 'dev\.agentbench\.committed-from'/);
    assert.deepEqual(CONTAINER_LABEL_FILTERS, ['dev.agentbench.managed=true']);
    assert.deepEqual(IMAGE_LABEL_FILTERS, ['dev.agentbench.managed=true', 'dev.agentbench.committed-from']);
    const managedImages = readFileSync(path.join(root, 'packages/sandbox/src/docker/managed-images.ts'), 'utf8');
    assert.match(managedImages, /const labelFilters = \[`\$\{LABEL_MANAGED\}=true`, LABEL_COMMITTED_FROM\]/);
  });
});
