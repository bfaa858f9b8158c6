import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import type { AgentDefinition } from '../definition/load-agent-definition.js';
import { installPackage, MANIFEST_FILE, type InstallStatus } from './install-package.js';
import type { NpmInstallOptions } from './npm-install.js';

/** Where the agent's install folder is mounted (read-only) in the sandbox. */
export const AGENT_MOUNT_POINT = '/opt/agentbench/agent';
/** Where the runtime's install folder is mounted (read-only) in the sandbox. */
export const RUNTIME_MOUNT_POINT = '/opt/agentbench/runtime';

/** A host folder the sandbox sees read-only at `sandboxPath` (`SandboxSpec.readOnlyMounts`). */
export interface ReadOnlyMount {
  hostPath: string;
  sandboxPath: string;
}

/** An agent ready to run: its host folders (checksummed) and how the sandbox sees them. */
export interface AgentInstallation {
  name: string;
  /** The installed version; undefined for an agent with no package (`command`). */
  version: string | undefined;
  /** `installed` now, `reused` from the cache (its checksums verified), or `none` (nothing to install). */
  status: InstallStatus | 'none';
  /** Host folder of the agent's install; undefined when it has no package. */
  folder: string | undefined;
  /** Host folder of its runtime's install, when it has one. */
  runtimeFolder: string | undefined;
  /** What to mount read-only into the sandbox: the agent (and its runtime). Never copied into the image. */
  mounts: ReadOnlyMount[];
  /** The agent's executable as the sandbox sees it. */
  binary: string | undefined;
  /** The runtime's bin folder as the sandbox sees it. */
  runtimeBin: string | undefined;
}

export interface InstallAgentOptions extends NpmInstallOptions {
  /** A version other than the definition's pin (its integrity is then not checked: the definition pins only its own). */
  version?: string;
  /** The host cache. Default `$AGENTBENCH_AGENTS_CACHE`, else `~/.cache/agentbench/agents` (`$XDG_CACHE_HOME` honoured). */
  cacheFolder?: string;
  /** Remove the cached install and make it again. */
  isForced?: boolean;
}

/** The host cache of installed agents. */
export function defaultAgentsCache(): string {
  const fromEnvironment = process.env['AGENTBENCH_AGENTS_CACHE'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return path.resolve(fromEnvironment);
  const cacheHome = process.env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache');
  return path.join(cacheHome, 'agentbench', 'agents');
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The cache folders of an agent's install and of its runtime (`runtimes/PACKAGE/VERSION`, a scope's `/` as `+`). */
export function installFolders(definition: AgentDefinition, options: Pick<InstallAgentOptions, 'version' | 'cacheFolder'> = {}): { folder?: string; runtimeFolder?: string } {
  const cache = path.resolve(options.cacheFolder ?? defaultAgentsCache());
  const version = options.version ?? definition.version;
  const folders: { folder?: string; runtimeFolder?: string } = {};
  if (definition.package !== undefined && version !== undefined) folders.folder = path.join(cache, definition.name, version);
  if (definition.runtime !== 'none') folders.runtimeFolder = path.join(cache, 'runtimes', definition.runtime.package.replace('/', '+'), definition.runtime.version);
  return folders;
}

/** Whether the agent (and its runtime) has an install record in the cache; its checksums are checked only when installed or used. */
export async function isAgentInstalled(definition: AgentDefinition, options: Pick<InstallAgentOptions, 'version' | 'cacheFolder'> = {}): Promise<boolean> {
  const folders = installFolders(definition, options);
  for (const folder of [folders.folder, folders.runtimeFolder]) {
    if (folder !== undefined && !(await stat(path.join(folder, MANIFEST_FILE)).then(() => true, () => false))) return false;
  }
  return true;
}

/**
 * Installs an agent (and its runtime) from npm into the host cache, or reuses the cached install
 * after checking its checksums; returns where it is and what to mount. An agent without a package
 * (`command`) has nothing to install.
 */
export async function installAgent(definition: AgentDefinition, options: InstallAgentOptions = {}): Promise<AgentInstallation> {
  if (options.version !== undefined && !EXACT_VERSION.test(options.version)) {
    throw new InstalledAgentError(`${definition.name}@${options.version}: expected an exact version such as "${definition.version ?? '1.2.3'}" (no range)`);
  }
  if (definition.package === undefined) {
    if (options.version !== undefined) throw new InstalledAgentError(`agent "${definition.name}" has no package to install, so no version (${options.version})`);
    return { name: definition.name, version: undefined, status: 'none', folder: undefined, runtimeFolder: undefined, mounts: [], binary: undefined, runtimeBin: undefined };
  }
  const version = options.version ?? definition.version ?? '';
  const folders = installFolders(definition, options);
  const npmOptions = { ...(options.registry === undefined ? {} : { registry: options.registry }), ...(options.onOutput === undefined ? {} : { onOutput: options.onOutput }) };
  const mounts: ReadOnlyMount[] = [];
  let runtimeBin: string | undefined;
  let runtimeStatus: InstallStatus = 'reused';
  if (definition.runtime !== 'none' && folders.runtimeFolder !== undefined) {
    const { runtime } = definition;
    runtimeStatus = await installPackage({ package: runtime.package, version: runtime.version, integrity: runtime.integrity }, folders.runtimeFolder, { ...npmOptions, isForced: options.isForced === true });
    mounts.push({ hostPath: folders.runtimeFolder, sandboxPath: RUNTIME_MOUNT_POINT });
    runtimeBin = `${RUNTIME_MOUNT_POINT}/${runtime.bin}`;
  }
  const folder = folders.folder ?? '';
  const integrity = version === definition.version ? definition.integrity : undefined;
  const status = await installPackage({ package: definition.package, version, integrity }, folder, { ...npmOptions, isForced: options.isForced === true });
  // A wrong `binary` (a package that moved its executable) is said now, not as "not found" inside the sandbox.
  const binaryOnHost = path.join(folder, definition.binary ?? '');
  if (!(await stat(binaryOnHost).then((stats) => stats.isFile(), () => false))) {
    throw new InstalledAgentError(`${definition.file}: binary: ${definition.binary ?? ''} is not in the install of ${definition.package}@${version} (${folder}); expected the path of its executable inside that folder`);
  }
  mounts.unshift({ hostPath: folder, sandboxPath: AGENT_MOUNT_POINT });
  return {
    name: definition.name,
    version,
    status: status === 'installed' || runtimeStatus === 'installed' ? 'installed' : 'reused',
    folder,
    runtimeFolder: folders.runtimeFolder,
    mounts,
    binary: `${AGENT_MOUNT_POINT}/${definition.binary ?? ''}`,
    runtimeBin,
  };
}
