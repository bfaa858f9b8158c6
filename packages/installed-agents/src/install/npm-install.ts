import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InstalledAgentError } from '../errors/installed-agent-error.js';

export interface NpmInstallOptions {
  /** The registry URL; default: npm's own setting. */
  registry?: string;
  /** Lines npm prints, for progress. */
  onOutput?: (line: string) => void;
}

// npm's codes for a registry it cannot reach (DNS, refused, reset, timed out, proxy, TLS).
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\b|network request to .* failed/;
const MAX_KEPT_OUTPUT = 64 * 1024;

/**
 * `npm install PACKAGE@VERSION` into `folder` (which becomes a small npm project with its
 * package-lock.json), for the sandbox's platform (linux x64 glibc) whatever the host's, and with
 * no install scripts: a package's postinstall never runs on the host. npm checks each tarball
 * against the registry's sha512 integrity, which the lockfile keeps.
 */
export async function npmInstall(spec: string, folder: string, options: NpmInstallOptions = {}): Promise<void> {
  // A package.json of its own, so npm does not walk up to a project above the cache.
  await writeFile(path.join(folder, 'package.json'), `${JSON.stringify({ name: 'agentbench-installed-agent', private: true }, null, 2)}\n`);
  const args = [
    'install',
    spec,
    '--prefix',
    folder,
    '--save-exact',
    '--ignore-scripts',
    '--os=linux',
    '--cpu=x64',
    '--libc=glibc',
    '--no-audit',
    '--no-fund',
    '--no-update-notifier',
    '--loglevel=warn',
    ...(options.registry === undefined ? [] : ['--registry', options.registry]),
  ];
  let output = '';
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn('npm', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_yes: 'true' } });
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-MAX_KEPT_OUTPUT);
      for (const line of text.split('\n')) if (line.trim() !== '') options.onOutput?.(line);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new InstalledAgentError('npm was not found on PATH: installing an agent needs npm (it comes with Node.js)')
          : new InstalledAgentError(`npm could not start: ${error.message}`),
      ),
    );
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  if (code === 0) return;
  const lastLines = output.trim().split('\n').slice(-6).join('\n');
  if (UNREACHABLE.test(output)) {
    throw new InstalledAgentError(
      `npm could not reach the registry${options.registry === undefined ? '' : ` ${options.registry}`} to install ${spec}: installing an agent needs the npm registry once, after which the cache is used offline\n${lastLines}`,
    );
  }
  throw new InstalledAgentError(`npm install ${spec} failed (exit code ${code}):\n${lastLines}`);
}
