import { spawn } from 'node:child_process';
import { access, constants as fsConstants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { SandboxError } from '../contract/sandbox-error.js';
import { dropPrivilegesArguments, sandboxUser } from './sandbox-user.js';

export type BwrapAvailability = { isAvailable: true; path: string } | { isAvailable: false; reason: string };

/** The host programs a bwrap sandbox is started with, found once per process. */
export interface BwrapTools {
  bwrapPath: string;
  /** util-linux's setpriv, unshare and mount: needed when we run as root (the sandbox then runs as uid 65534). */
  setprivPath?: string;
  unsharePath?: string;
  mountPath?: string;
  /** Whether this bwrap has `--disable-userns` (0.8+): the sandbox then cannot make user namespaces of its own. */
  canDisableUserNamespaces: boolean;
}

type Probe = { availability: BwrapAvailability; tools?: BwrapTools };

let cached: Promise<Probe> | undefined;

/**
 * Whether bubblewrap can run sandboxes here: the binary is on PATH and a trivial sandbox
 * with every namespace unshared really runs, as the sandbox's user (uid 65534 when we run
 * as root, which needs setpriv, and user namespaces for unprivileged users: some kernels
 * or containers forbid them). Checked once per process.
 */
export async function isBwrapAvailable(): Promise<BwrapAvailability> {
  cached ??= probe();
  return (await cached).availability;
}

/** The bwrap binary's path, or a `backend_unavailable` error saying why it cannot be used. */
export async function assertBwrapAvailable(): Promise<string> {
  return (await requireBwrapTools()).bwrapPath;
}

/** The programs a sandbox is started with, or a `backend_unavailable` error saying why bwrap cannot be used. */
export async function requireBwrapTools(): Promise<BwrapTools> {
  cached ??= probe();
  const { availability, tools } = await cached;
  if (!availability.isAvailable || tools === undefined) {
    const reason = availability.isAvailable ? 'unknown' : availability.reason;
    throw new SandboxError('backend_unavailable', `the bwrap backend is unavailable: ${reason}`, { subject: 'bwrap' });
  }
  return tools;
}

async function probe(): Promise<Probe> {
  const path = await findOnPath('bwrap');
  if (path === undefined) {
    return { availability: { isAvailable: false, reason: 'bubblewrap (bwrap) is not installed or not on PATH; install the "bubblewrap" package' } };
  }
  const user = sandboxUser();
  const tools: BwrapTools = { bwrapPath: path, canDisableUserNamespaces: (await helpText(path)).includes('--disable-userns') };
  if (user.isDropped) {
    const [setprivPath, unsharePath, mountPath] = await Promise.all([findOnPath('setpriv'), findOnPath('unshare'), findOnPath('mount')]);
    const missing = Object.entries({ setpriv: setprivPath, unshare: unsharePath, mount: mountPath }).filter(([, found]) => found === undefined);
    if (setprivPath === undefined || unsharePath === undefined || mountPath === undefined) {
      const names = missing.map(([name]) => name).join(', ');
      return {
        availability: {
          isAvailable: false,
          reason: `running as root, bwrap sandboxes run as uid ${user.uid} (root inside is never root outside), which needs ${names} from util-linux on PATH`,
        },
      };
    }
    Object.assign(tools, { setprivPath, unsharePath, mountPath });
  }
  // The same user namespace, identity and read-only sysctls as a real sandbox.
  const args = [
    ...dropPrivilegesArguments(user, tools.setprivPath),
    path,
    '--ro-bind', '/', '/',
    '--unshare-all', '--unshare-user', '--uid', '0', '--gid', '0',
    ...(tools.canDisableUserNamespaces ? ['--disable-userns'] : []),
    '--die-with-parent', '--new-session', '--proc', '/proc', '--ro-bind-try', '/proc/sys', '/proc/sys', '--dev', '/dev', '--', '/bin/true',
  ];
  const [file = path, ...rest] = args;
  const availability = await new Promise<BwrapAvailability>((resolve) => {
    const child = spawn(file, rest, { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let errorOutput = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (errorOutput.length < 2000) errorOutput += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ isAvailable: false, reason: `cannot run ${path}: ${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve({ isAvailable: true, path });
        return;
      }
      const detail = errorOutput.trim() || `exit ${code ?? signal}`;
      resolve({
        isAvailable: false,
        reason: `${path} cannot create a sandbox here as uid ${user.uid} (${detail}); user namespaces may be disabled for unprivileged users (sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, an AppArmor restriction, or the container forbids them)`,
      });
    });
  });
  return availability.isAvailable ? { availability, tools } : { availability };
}

/** `bwrap --help`, to learn which options this version has (empty when it cannot run). */
function helpText(path: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(path, ['--help'], { stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
    });
    child.stderr.resume();
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(text));
  });
}

async function findOnPath(name: string): Promise<string | undefined> {
  const folders = (process.env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '');
  for (const folder of [...folders, '/usr/bin', '/usr/local/bin', '/bin']) {
    const candidate = join(folder, name);
    try {
      await access(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}
