import type { BwrapSandbox, BwrapSandboxOptions } from '../bwrap/bwrap-sandbox.js';
import type { DockerSandbox, DockerSandboxOptions } from '../docker/docker-sandbox.js';
import type { LocalSandbox, LocalSandboxOptions } from '../local/local-sandbox.js';
import { defineSandboxBackend } from './sandbox-backend.js';

/**
 * The options and sandbox type of each built-in backend, for `createSandbox`'s types. Any other name
 * takes `unknown` options and gives a `Sandbox`: its definition (`defineSandboxBackend<Options>`) is where
 * its options are typed. (Augmenting this interface from outside does not reach the source build, where
 * it is re-exported, so we do not offer that.)
 */
export interface SandboxBackendTypes {
  docker: { options: DockerSandboxOptions; sandbox: DockerSandbox };
  bwrap: { options: BwrapSandboxOptions; sandbox: BwrapSandbox };
  local: { options: LocalSandboxOptions; sandbox: LocalSandbox };
}

// Each loader imports its backend's module only when a sandbox of that kind is first made.
export const dockerBackend = defineSandboxBackend<DockerSandboxOptions, DockerSandbox>({
  name: 'docker',
  description: 'hardened Docker container (the default): no network unless asked, cgroup limits, labelled and removed on exit',
  promises: { isolation: 'container', cutsNetwork: true, limits: 'enforced' },
  load: async () => {
    const { DockerSandbox } = await import('../docker/docker-sandbox.js');
    return { create: (spec, options) => DockerSandbox.create(spec, options) };
  },
});

export const bwrapBackend = defineSandboxBackend<BwrapSandboxOptions, BwrapSandbox>({
  name: 'bwrap',
  description: 'bubblewrap namespaces on an exported runner image, no daemon (needs spec.rootfs, or spec.image and an engine to export it)',
  promises: { isolation: 'namespaces', cutsNetwork: true, limits: 'best-effort' },
  load: async () => {
    const { BwrapSandbox } = await import('../bwrap/bwrap-sandbox.js');
    return { create: (spec, options) => BwrapSandbox.create(spec, options) };
  },
});

export const localBackend = defineSandboxBackend<LocalSandboxOptions, LocalSandbox>({
  name: 'local',
  description: 'a folder on this host and host processes: no isolation, for trusted code only (explicit opt-in)',
  promises: { isolation: 'none', cutsNetwork: false, limits: 'ignored' },
  load: async () => {
    const { LocalSandbox } = await import('../local/local-sandbox.js');
    return { create: (spec, options) => LocalSandbox.create(spec, options) };
  },
});

