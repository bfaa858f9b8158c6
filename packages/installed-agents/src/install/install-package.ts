import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InstalledAgentError } from '../errors/installed-agent-error.js';
import { npmInstall, type NpmInstallOptions } from './npm-install.js';
import { checksumTree, firstTreeDifference, type TreeEntry } from './tree-checksum.js';

/** The record of an install, written last into its folder: what npm installed and the checksum of every file. */
export const MANIFEST_FILE = 'agentbench-install.json';
const MANIFEST_FORMAT = 'agentbench-installed-package';

interface InstallManifest {
  format: typeof MANIFEST_FORMAT;
  format_version: 1;
  package: string;
  version: string;
  installed_at: string;
  /** npm's integrity (sha512 of the tarball) of every package of the install, from its lockfile. */
  tarballs: Record<string, { version: string; integrity: string }>;
  files: Record<string, TreeEntry>;
}

export interface PackageToInstall {
  package: string;
  version: string;
  /** npm's integrity the package's tarball must have; checked after the install when given. */
  integrity?: string | undefined;
}

export interface InstallPackageOptions extends NpmInstallOptions {
  /** Remove an existing install (even one whose checksum fails) and install again. */
  isForced?: boolean;
}

export type InstallStatus = 'installed' | 'reused';

// Folders already verified by this process: an attempt after the first skips re-hashing hundreds of MB.
const verifiedFolders = new Set<string>();

/**
 * Makes `folder` hold `PACKAGE@VERSION` from npm, once: an existing install is reused after its
 * files are checked against the checksums recorded when it was made (a changed, missing or added
 * file is refused, naming it). A new one is made in a staging folder beside it and renamed into
 * place only when complete and checksummed, so a failure (npm unreachable, a wrong integrity)
 * leaves nothing half-installed.
 */
export async function installPackage(wanted: PackageToInstall, folder: string, options: InstallPackageOptions = {}): Promise<InstallStatus> {
  const spec = `${wanted.package}@${wanted.version}`;
  if (options.isForced === true) {
    verifiedFolders.delete(folder);
    await rm(folder, { recursive: true, force: true });
  } else if (await exists(path.join(folder, MANIFEST_FILE))) {
    await verifyInstall(folder, spec);
    return 'reused';
  } else if (await exists(folder)) {
    throw new InstalledAgentError(`${folder} exists but holds no ${MANIFEST_FILE} (not an install of ours, or one that was cut short): remove it, or install with --force`);
  }
  await mkdir(path.dirname(folder), { recursive: true });
  const staging = `${folder}.staging-${randomBytes(6).toString('hex')}`;
  try {
    await mkdir(staging);
    await npmInstall(spec, staging, options);
    const tarballs = await lockedTarballs(staging, wanted);
    const files = await checksumTree(staging, [MANIFEST_FILE]);
    const manifest: InstallManifest = {
      format: MANIFEST_FORMAT,
      format_version: 1,
      package: wanted.package,
      version: wanted.version,
      installed_at: new Date().toISOString(),
      tarballs,
      files,
    };
    await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
    try {
      await rename(staging, folder);
    } catch (error) {
      // Another process finished the same install first: use theirs.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      await verifyInstall(folder, spec);
      return 'reused';
    }
    verifiedFolders.add(folder);
    return 'installed';
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Checks an install's files against its manifest; throws naming the first difference. */
export async function verifyInstall(folder: string, spec: string): Promise<void> {
  if (verifiedFolders.has(folder)) return;
  const manifestFile = path.join(folder, MANIFEST_FILE);
  let manifest: InstallManifest;
  try {
    manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as InstallManifest;
  } catch (error) {
    throw new InstalledAgentError(`${manifestFile}: cannot read the install record of ${spec} (${(error as Error).message}); remove ${folder} or install with --force`);
  }
  if (manifest.format !== MANIFEST_FORMAT || typeof manifest.files !== 'object' || manifest.files === null) {
    throw new InstalledAgentError(`${manifestFile}: not an install record (expected format "${MANIFEST_FORMAT}"); remove ${folder} or install with --force`);
  }
  const difference = firstTreeDifference(manifest.files, await checksumTree(folder, [MANIFEST_FILE]));
  if (difference !== undefined) {
    throw new InstalledAgentError(
      `the cached install of ${spec} in ${folder} does not match the checksums recorded when it was installed: ${difference}. Refusing to use it; remove the folder or reinstall with \`ab agents install --force\``,
    );
  }
  verifiedFolders.add(folder);
}

/** Every package of the lockfile with its integrity; the wanted package's version and integrity are checked. */
async function lockedTarballs(staging: string, wanted: PackageToInstall): Promise<InstallManifest['tarballs']> {
  const lockFile = path.join(staging, 'package-lock.json');
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { packages?: Record<string, { version?: string; integrity?: string; link?: boolean }> };
  const tarballs: InstallManifest['tarballs'] = {};
  for (const [entryPath, entry] of Object.entries(lock.packages ?? {})) {
    if (entryPath === '' || entry.link === true) continue;
    // Optional packages of other platforms are listed without being installed.
    if (!(await exists(path.join(staging, entryPath)))) continue;
    if (typeof entry.integrity !== 'string' || !entry.integrity.startsWith('sha512-')) {
      throw new InstalledAgentError(`npm recorded no sha512 integrity for ${entryPath} of ${wanted.package}@${wanted.version}: refusing an install that cannot be checksummed`);
    }
    tarballs[entryPath] = { version: entry.version ?? '', integrity: entry.integrity };
  }
  const main = tarballs[`node_modules/${wanted.package}`];
  if (main === undefined || main.version !== wanted.version) {
    throw new InstalledAgentError(`npm installed ${main === undefined ? 'no' : `version ${main.version} of`} ${wanted.package}, not ${wanted.version}`);
  }
  if (wanted.integrity !== undefined && main.integrity !== wanted.integrity) {
    throw new InstalledAgentError(
      `${wanted.package}@${wanted.version} from the registry has the integrity ${main.integrity}, not ${wanted.integrity} as its definition pins: refusing it (a republished or tampered package, or a mirror serving another build)`,
    );
  }
  return tarballs;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
